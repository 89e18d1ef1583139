#!/usr/bin/env node
// The `authlib-xata` command. A committed shim (the build writes dist/), so installing the
// workspace or the package never points a bin link at a file that does not exist yet.
await import("../dist/cli.js")
