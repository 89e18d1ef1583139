import { dirname, resolve } from "node:path"
import { fileURLToPath } from "node:url"

// The workspace root: the packages are linked from outside this folder.
const root = resolve(dirname(fileURLToPath(import.meta.url)), "../../..")

/** @type {import("next").NextConfig} */
export default { turbopack: { root }, outputFileTracingRoot: root, serverExternalPackages: ["pg"], typescript: { ignoreBuildErrors: true } }
