/**
 * Builds the fixture app once per Next version before any test file runs (each build is reused
 * while its sources are unchanged; see `helpers/next-app.ts`). The package's `dist` must be built:
 * turbo's `test` task depends on `build`.
 */
import { existsSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { buildFixture } from "./helpers/next-app.js"

export default function setup(): void {
  const dist = join(resolve(dirname(fileURLToPath(import.meta.url)), ".."), "dist/index.js")
  if (!existsSync(dist)) throw new Error("Build @authlib/nextjs first (pnpm turbo run build --filter=@authlib/nextjs): the fixture app uses its dist")
  buildFixture("16")
  buildFixture("15")
}
