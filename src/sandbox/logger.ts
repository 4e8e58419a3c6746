/** Where the sandbox writes: one line per request (when asked) and unexpected errors. */
export interface SandboxLogger {
  info(message: string): void;
  error(message: string, error?: unknown): void;
}

export const silentLogger: SandboxLogger = {
  info() {},
  error(message, error) {
    console.error(`[paydesk sandbox] ${message}`, error ?? '');
  },
};

export const consoleLogger: SandboxLogger = {
  info(message) {
    console.log(message);
  },
  error(message, error) {
    console.error(`[paydesk sandbox] ${message}`, error ?? '');
  },
};
