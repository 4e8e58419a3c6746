#!/usr/bin/env node
// `npx paydesk-sandbox --port 4010 --api-key KEY`: the sandbox provider from the installed package
// (the same program as `npm run sandbox` in the paydesk repository). `--help` lists the options.
import '../dist/sandbox/cli.js';
