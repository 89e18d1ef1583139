/**
 * The organizations tests' kit: a config with the in-memory organizations adapter (every user
 * stored with a verified address unless told otherwise), a password provider that signs any
 * stored user in by name, the invitations `sendInvitation` received, and the app's own request
 * from a client's browser (as a server function gets it). Both session strategies.
 */
import { expect } from "vitest"
import { acceptInvitation, inviteMember, type AuthConfig, type CredentialsConfig, type InvitationMessage } from "../../../src/index.js"
import { Client, config as baseConfig, ORIGIN } from "../../helpers/harness.js"
import { organizationsAdapter, type OrganizationsAdapter } from "../../helpers/organizations-adapter.js"
import { memoryAdapter } from "../../helpers/memory-adapter.js"

export type Strategy = "jwt" | "database"
export const STRATEGIES: Strategy[] = ["jwt", "database"]

export interface Kit {
  adapter: OrganizationsAdapter
  config: AuthConfig
  /** What `sendInvitation` received, oldest first. */
  sent: InvitationMessage[]
  /** A browser signed in as the stored user `name` (password "pw"). */
  signIn(name: string): Promise<Client>
  /** Stores a user `name` (`<name>@example.com`, verified unless `verified: false`). */
  addUser(name: string, over?: { email?: string; verified?: boolean }): void
}

/** Signs in any stored user by their id (= name) with password "pw". */
function passwordProvider(adapter: OrganizationsAdapter): CredentialsConfig {
  return {
    id: "credentials",
    name: "Password",
    type: "credentials",
    credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
    async authorize(c) {
      const user = typeof c.username === "string" ? adapter.users.get(c.username) : undefined
      return user && c.password === "pw" ? { id: user.id, name: user.name ?? null, email: user.email } : null
    },
  }
}

export function kit(strategy: Strategy, organizations: Partial<NonNullable<AuthConfig["organizations"]>> = {}, over: Partial<AuthConfig> = {}): Kit {
  const adapter = organizationsAdapter(memoryAdapter())
  const sent: InvitationMessage[] = []
  const config = baseConfig({
    url: ORIGIN,
    adapter,
    providers: [passwordProvider(adapter)],
    session: { strategy },
    organizations: { sendInvitation: (message) => void sent.push(message), ...organizations },
    ...over,
  })
  const addUser: Kit["addUser"] = (name, o = {}) =>
    void adapter.users.set(name, { id: name, name: name[0]!.toUpperCase() + name.slice(1), email: o.email ?? `${name}@example.com`, emailVerified: o.verified === false ? null : new Date() })
  for (const name of ["alice", "bob", "carol", "dave", "erin"]) addUser(name)
  return {
    adapter,
    config,
    sent,
    addUser,
    async signIn(name) {
      const client = new Client(config)
      const res = await client.signIn(name, "pw")
      expect(res.status, `sign-in of ${name}`).toBe(302)
      expect(res.headers.get("location")).not.toContain("error")
      return client
    },
  }
}

/** The app's own request from the browser of `client` (its cookies), as a server function gets it. */
export function appRequest(client: Client): Request {
  const headers = new Headers()
  client.jar.apply(headers, new URL(`${ORIGIN}/app`))
  return new Request(`${ORIGIN}/app`, { headers })
}

/** The token of the newest invitation link `sendInvitation` received. */
export function lastToken(sent: InvitationMessage[]): string {
  const url = new URL(sent.at(-1)!.url)
  return url.searchParams.get("token")!
}

/** Whatever a promise rejects with (fails when it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<{ type?: string; code?: string; message: string; cause?: unknown }> {
  try {
    await promise
  } catch (err) {
    return err as { type?: string; code?: string; message: string }
  }
  throw new Error("expected a rejection")
}

/** POST /auth/organizations with a fresh CSRF token: status and JSON. */
export async function post(client: Client, form: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await client.post("/auth/organizations", form)
  return { status: res.status, body: (await res.json()) as Record<string, unknown> }
}

/** `name` signed in and made a member of `organizationId` with `role` by `inviter` (an invitation sent and accepted). */
export async function join(k: Kit, inviter: Client, organizationId: string, name: string, role: string): Promise<Client> {
  await inviteMember(appRequest(inviter), k.config, organizationId, { email: `${name}@example.com`, role })
  const client = await k.signIn(name)
  await acceptInvitation(appRequest(client), k.config, lastToken(k.sent))
  return client
}
