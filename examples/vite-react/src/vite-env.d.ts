/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** The token endpoint's URL when it is not this origin's /api/paydesk. */
  readonly VITE_PAYDESK_ENDPOINT?: string;
}
