import { spawn, type ChildProcess } from "node:child_process"
import { randomBytes } from "node:crypto"
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { freePort } from "../free-port.js"

// A real SAML IdP for the tests: Debian's SimpleSAMLphp 1.19 (apt: simplesamlphp, php-cli) served by
// PHP's built-in server on a free loopback port, configured from a temp directory the test writes.
// The SP is described to it by the SP metadata XML @authlib/saml generates, read through
// SimpleSAMLphp's own metadata parser.

export const SIMPLESAMLPHP_WWW = "/usr/share/simplesamlphp/www"

export interface SimpleSamlPhpOptions {
  /** The SP metadata XML (from serviceProviderMetadata). */
  spMetadataXml: string
  /** The IdP key pair (PEM), written to its cert dir. */
  idpKeys: { privateKeyPem: string; certificatePem: string }
  /** Encrypt assertions for the SP (SimpleSAMLphp 1.19 uses AES-128-CBC with RSA-OAEP). */
  encryptAssertions?: boolean
  /** The users of the exampleauth:UserPass source: `name:password` → attributes. */
  users: Record<string, Record<string, string[]>>
}

export interface SimpleSamlPhp {
  baseUrl: string
  entityId: string
  metadataUrl: string
  logs: () => string
  stop: () => Promise<void>
}

export async function startSimpleSamlPhp(options: SimpleSamlPhpOptions): Promise<SimpleSamlPhp> {
  const dir = await mkdtemp(join(tmpdir(), "authlib-ssp-"))
  const port = await freePort()
  const baseUrl = `http://127.0.0.1:${port}/`
  const entityId = `${baseUrl}saml2/idp/metadata.php`
  for (const sub of ["config", "metadata", "cert", "tmp", "log", "data", "sessions"]) await mkdir(join(dir, sub))
  await writeFile(join(dir, "cert", "idp.key"), options.idpKeys.privateKeyPem)
  await writeFile(join(dir, "cert", "idp.crt"), options.idpKeys.certificatePem)
  await writeFile(join(dir, "metadata", "sp.xml"), options.spMetadataXml)
  await writeFile(join(dir, "config", "config.php"), configPhp(dir, baseUrl))
  await writeFile(join(dir, "config", "authsources.php"), authsourcesPhp(options.users))
  await writeFile(join(dir, "metadata", "saml20-idp-hosted.php"), idpHostedPhp(entityId, options.encryptAssertions === true))
  let output = ""
  const child = spawn("php", ["-S", `127.0.0.1:${port}`, "-t", SIMPLESAMLPHP_WWW], {
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", SIMPLESAMLPHP_CONFIG_DIR: join(dir, "config") },
    stdio: ["ignore", "pipe", "pipe"],
  })
  child.stdout?.on("data", (d: Buffer) => (output += d.toString()))
  child.stderr?.on("data", (d: Buffer) => (output += d.toString()))
  // No php on this machine: say what to install instead of an unhandled 'error' event.
  child.on("error", (error) => (output += `php could not start (${error.message}); .ci/setup installs simplesamlphp, php-cli, php-xml, php-mbstring\n`))
  try {
    await waitUntilUp(`${baseUrl}saml2/idp/metadata.php`, child, () => output)
  } catch (error) {
    await stopProcess(child)
    await rm(dir, { recursive: true, force: true })
    throw error
  }
  return {
    baseUrl,
    entityId,
    metadataUrl: `${baseUrl}saml2/idp/metadata.php`,
    logs: () => output,
    stop: async () => {
      await stopProcess(child)
      await rm(dir, { recursive: true, force: true })
    },
  }
}

const php = (value: string) => `'${value.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`

function configPhp(dir: string, baseUrl: string): string {
  return `<?php
$config = [
  'baseurlpath' => ${php(baseUrl)},
  'certdir' => ${php(join(dir, "cert") + "/")},
  'loggingdir' => ${php(join(dir, "log") + "/")},
  'datadir' => ${php(join(dir, "data") + "/")},
  'tempdir' => ${php(join(dir, "tmp"))},
  'metadatadir' => ${php(join(dir, "metadata") + "/")},
  'metadata.sources' => [
    ['type' => 'flatfile'],
    ['type' => 'xml', 'file' => ${php(join(dir, "metadata", "sp.xml"))}],
  ],
  'technicalcontact_name' => 'authlib tests',
  'technicalcontact_email' => 'tests@example.invalid',
  'secretsalt' => ${php(randomBytes(16).toString("hex"))},
  'auth.adminpassword' => ${php(randomBytes(16).toString("hex"))},
  'admin.protectindexpage' => false,
  'admin.protectmetadata' => false,
  'timezone' => 'UTC',
  'logging.level' => SimpleSAML\\Logger::WARNING,
  'logging.handler' => 'file',
  'logging.logfile' => 'simplesamlphp.log',
  'enable.saml20-idp' => true,
  'module.enable' => ['exampleauth' => true, 'core' => true, 'saml' => true, 'admin' => true],
  'store.type' => 'phpsession',
  'session.phpsession.savepath' => ${php(join(dir, "sessions"))},
  'session.cookie.secure' => false,
  'session.cookie.samesite' => null,
  'language.available' => ['en'],
  'language.default' => 'en',
];
`
}

function authsourcesPhp(users: SimpleSamlPhpOptions["users"]): string {
  const entries = Object.entries(users)
    .map(([login, attributes]) => {
      const attrs = Object.entries(attributes)
        .map(([name, values]) => `${php(name)} => [${values.map(php).join(", ")}]`)
        .join(", ")
      return `    ${php(login)} => [${attrs}],`
    })
    .join("\n")
  return `<?php
$config = [
  'admin' => ['core:AdminPassword'],
  'example-userpass' => [
    'exampleauth:UserPass',
${entries}
  ],
];
`
}

function idpHostedPhp(entityId: string, encrypt: boolean): string {
  return `<?php
$metadata[${php(entityId)}] = [
  'host' => '__DEFAULT__',
  'privatekey' => 'idp.key',
  'certificate' => 'idp.crt',
  'auth' => 'example-userpass',
  'signature.algorithm' => 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
  'saml20.sign.assertion' => true,
  'saml20.sign.response' => true,
  'assertion.encryption' => ${encrypt ? "true" : "false"},
  'NameIDFormat' => 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
  'simplesaml.nameidattribute' => 'email',
  'attributes.NameFormat' => 'urn:oasis:names:tc:SAML:2.0:attrname-format:basic',
];
`
}

async function waitUntilUp(url: string, child: ChildProcess, logs: () => string): Promise<void> {
  const deadline = Date.now() + 20_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null || logs().includes("php could not start")) throw new Error(`php -S is not running: ${logs()}`)
    try {
      const response = await fetch(url)
      if (response.status === 200 && (await response.text()).includes("IDPSSODescriptor")) return
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`SimpleSAMLphp did not answer ${url}: ${logs()}`)
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return
  await new Promise<void>((resolve) => {
    child.once("exit", () => resolve())
    child.kill("SIGTERM")
  })
}
