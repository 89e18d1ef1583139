import { dirname, resolve } from "node:path"
import { fileURLToPath } from "node:url"

// The workspace's root: the demo links to packages outside its folder, which Turbopack compiles
// only inside its root.
const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..")

/** @type {import("next").NextConfig} */
export default {
  turbopack: { root },
  outputFileTracingRoot: root,
  // The Qwik demo's server modules (TypeScript source) are shared: the embedded database, mail server and OpenID provider.
  transpilePackages: ["@authlib/demo"],
  // Node packages that must not be bundled: the embedded PostgreSQL (WASM files), the OpenID provider, the SMTP server.
  serverExternalPackages: ["@electric-sql/pglite", "oidc-provider", "smtp-server", "mailparser", "nodemailer", "pg"],
}
