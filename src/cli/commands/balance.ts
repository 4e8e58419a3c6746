/** `paydesk balance`: the terminal's balance (`GET /api/v1/finance/balance`) over the typed client. */
import { printJson } from '../core/io.js';
import { clientOf, providerTarget, viaProvider } from '../core/provider.js';
import { JSON_OPTION, PROVIDER_OPTIONS, type CommandSpec } from '../core/spec.js';
import { fields } from '../core/table.js';

export const balance: CommandSpec = {
  name: 'balance',
  summary: "the terminal's balance: available, frozen, total",
  args: [],
  options: { ...PROVIDER_OPTIONS, ...JSON_OPTION },
  examples: ['paydesk balance', 'paydesk balance --json'],
  async run(input, io) {
    const target = providerTarget(input, io);
    const client = clientOf(target, io);
    const b = await viaProvider(target, () => client.getBalance());
    if (input.options.json) printJson(io, b);
    else io.out(fields([['available', `${b.available} ${b.currency}`], ['frozen', `${b.frozen} ${b.currency}`], ['total', `${b.total} ${b.currency}`], ['deposit', b.id]]));
    return 0;
  },
};
