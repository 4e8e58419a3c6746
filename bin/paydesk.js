#!/usr/bin/env node
// `npx paydesk <command>`: the paydesk developer tool from the installed package (sandbox, trigger,
// orders, balance, webhooks, doctor; src/cli/). `npx paydesk --help` lists the commands.
import '../dist/cli/bin.js';
