// The mocha globals that @web/test-runner provides in the browser (no @types/mocha in this repo).
interface MochaContext {
  timeout(ms: number): void;
}
type MochaDone = (error?: unknown) => void;
type MochaFn = (this: MochaContext, done: MochaDone) => void | Promise<unknown>;
declare function describe(title: string, fn: (this: MochaContext) => void): void;
declare function it(title: string, fn: MochaFn): void;
declare function before(fn: MochaFn): void;
declare function after(fn: MochaFn): void;
declare function beforeEach(fn: MochaFn): void;
declare function afterEach(fn: MochaFn): void;
