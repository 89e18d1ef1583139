/**
 * Single use across instances: two app instances (each its own `Auth` config and its own pool of
 * connections through the Xata adapter) share one PostgreSQL server, as two servers behind a load
 * balancer would. The same IdP Response, with the same binding cookie, posted to both at once signs
 * in exactly once; the other answer is `ASSERTION_REPLAYED`, and nothing of it is stored. So does
 * an unsolicited Response on a connection that allows IdP-initiated sign-in (single use by its
 * assertion ID, recorded in the shared verification-token table). A cross-domain assertion is
 * refused on this store too.
 */
import pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Auth, updateSsoConnection, type AuthConfig, type SsoConnection } from "@authlib/core"
import { XataAdapter, migrate } from "@authlib/xata-adapter"
import { assertionXml, b64, fields, responseXml, sign } from "@authlib/e2e-kit/saml/idp"
import { makeParties, type Parties } from "@authlib/e2e-kit/saml/keys"
import { findPgBin, startPgCluster, type PgCluster } from "@authlib/e2e-kit/pg-cluster"
import { Client, ORIGIN } from "../helpers.js"
import { IDP_ORIGIN, postToAcs, refusalCode, samlOrganization, ssoConfig, startApp, startSignIn, type SsoApp } from "./harness.js"

const IDP = "https://idp.acme.test/metadata"

let cluster: PgCluster | undefined
let pools: pg.Pool[] = []
let parties: Parties
let first: SsoApp
let second: AuthConfig
let connection: SsoConnection

beforeAll(async () => {
  let url = process.env.DATABASE_URL
  if (!url) {
    const bin = findPgBin()
    if (!bin) throw new Error("this test needs DATABASE_URL or the PostgreSQL server binaries (Debian: apt-get install postgresql)")
    cluster = await startPgCluster(bin)
    url = cluster.url
  }
  pools = [new pg.Pool({ connectionString: url, max: 5 }), new pg.Pool({ connectionString: url, max: 5 })]
  await migrate(pools[0]!)
  parties = await makeParties()
  first = await startApp(XataAdapter(pools[0]!))
  second = ssoConfig(XataAdapter(pools[1]!), first.txt)
  ;({ connection } = await samlOrganization(first, `acme-${crypto.randomUUID().slice(0, 6)}`, { entityId: IDP, ssoUrl: "https://idp.acme.test/sso", certificatePem: parties.idp.certificatePem }, ["acme.test"]))
}, 120_000)

afterAll(async () => {
  await Promise.all(pools.map((p) => p.end()))
  cluster?.stop()
})

/** A signed Response for `email`, answering `requestId` (`null`: unsolicited). */
function response(requestId: string | null, email: string): string {
  const now = Date.now()
  const f = fields({
    destination: connection.acsUrl!, recipient: connection.acsUrl!, audience: connection.spEntityId!, responseIssuer: IDP, assertionIssuer: IDP,
    inResponseTo: requestId, notBefore: new Date(now - 30_000), notOnOrAfter: new Date(now + 300_000), confirmationNotOnOrAfter: new Date(now + 300_000),
    nameId: email, attributes: { mail: [email] },
  })
  return b64(responseXml(f, sign(assertionXml(f), "Assertion", parties.idp)))
}

const count = async (sql: string, params: unknown[]) => Number((await pools[0]!.query(sql, params)).rows[0]!.n)

describe("SSO replay across two instances sharing PostgreSQL", () => {
  it("the same Response and cookie posted to both instances at once signs in exactly once; the other is ASSERTION_REPLAYED", async () => {
    const browser = new Client(first.config)
    const { requestId } = await startSignIn(browser, { email: "bob@acme.test" })
    const samlResponse = response(requestId, "bob@acme.test")
    const headers = new Headers({ origin: IDP_ORIGIN, "content-type": "application/x-www-form-urlencoded" })
    browser.jar.apply(headers, new URL(connection.acsUrl!))
    const post = (config: AuthConfig) => Auth(new Request(connection.acsUrl!, { method: "POST", headers, body: new URLSearchParams({ SAMLResponse: samlResponse }).toString() }), config)
    const answers = await Promise.all([post(first.config), post(second)])
    const codes = answers.map(refusalCode)
    expect(codes.filter((c) => c === null)).toHaveLength(1)
    expect(codes.filter((c) => c === "ASSERTION_REPLAYED")).toHaveLength(1)
    expect(answers.find((a) => refusalCode(a) === null)!.headers.get("location")).toBe(`${ORIGIN}/`)
    expect(await count(`SELECT count(*) AS n FROM authlib_users WHERE email = $1`, ["bob@acme.test"])).toBe(1)
    expect(await count(`SELECT count(*) AS n FROM authlib_accounts WHERE provider = 'sso'`, [])).toBe(1)
    // And once more, later, on either instance.
    for (const config of [first.config, second]) expect(refusalCode(await post(config))).toBe("ASSERTION_REPLAYED")
  })

  it("a Response answered on one instance cannot be replayed on the other", async () => {
    const browser = new Client(first.config)
    const { requestId } = await startSignIn(browser, { email: "carol@acme.test" })
    const samlResponse = response(requestId, "carol@acme.test")
    const headers = new Headers()
    browser.jar.apply(headers, new URL(connection.acsUrl!))
    const cookie = headers.get("cookie")!
    expect(refusalCode(await postToAcs(browser, connection.id, samlResponse, second))).toBeNull()
    const replay = await Auth(new Request(connection.acsUrl!, { method: "POST", headers: { cookie, origin: IDP_ORIGIN, "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ SAMLResponse: samlResponse }).toString() }), first.config)
    expect(refusalCode(replay)).toBe("ASSERTION_REPLAYED")
  })

  it("an assertion of an address outside the connection's verified domains is refused, nothing stored", async () => {
    const browser = new Client(first.config)
    const { requestId } = await startSignIn(browser, { email: "alice@acme.test" })
    const res = await postToAcs(browser, connection.id, response(requestId, "mallory@globex.test"), second)
    expect(refusalCode(res)).toBe("DOMAIN_NOT_VERIFIED")
    expect(await count(`SELECT count(*) AS n FROM authlib_users WHERE email = $1`, ["mallory@globex.test"])).toBe(0)
  })

  it("IdP-initiated: one unsolicited Response posted to both instances at once signs in exactly once; replays on either are ASSERTION_REPLAYED", async () => {
    connection = await updateSsoConnection(first.adminRequest(), first.config, connection.id, { allowIdpInitiated: true })
    const samlResponse = response(null, "dora@acme.test")
    // The IdP portal's form POST, from browsers that started nothing here.
    const post = (config: AuthConfig) =>
      Auth(new Request(connection.acsUrl!, { method: "POST", headers: { origin: IDP_ORIGIN, "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ SAMLResponse: samlResponse, RelayState: "/inbox" }).toString() }), config)
    const answers = await Promise.all([post(first.config), post(second)])
    const codes = answers.map(refusalCode)
    expect(codes.filter((c) => c === null)).toHaveLength(1)
    expect(codes.filter((c) => c === "ASSERTION_REPLAYED")).toHaveLength(1)
    expect(answers.find((a) => refusalCode(a) === null)!.headers.get("location")).toBe(`${ORIGIN}/inbox`)
    expect(await count(`SELECT count(*) AS n FROM authlib_users WHERE email = $1`, ["dora@acme.test"])).toBe(1)
    expect(await count(`SELECT count(*) AS n FROM "authlib_verificationTokens" WHERE identifier = $1 AND expires > now()`, [`authlib:sso-assertion:${connection.id}`])).toBe(1)
    for (const config of [first.config, second]) expect(refusalCode(await post(config))).toBe("ASSERTION_REPLAYED")
  })
})
