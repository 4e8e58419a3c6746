// Types for the encoder core of the `qrcode` package (CommonJS, imported directly to keep the bundle small).
declare module 'qrcode/lib/core/qrcode.js' {
  const core: {
    create(
      text: string,
      options?: { errorCorrectionLevel?: 'L' | 'M' | 'Q' | 'H'; version?: number },
    ): { modules: { size: number; data: Uint8Array }; version: number };
  };
  export default core;
}
