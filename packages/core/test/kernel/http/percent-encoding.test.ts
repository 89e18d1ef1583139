import { describe, expect, it } from "vitest"
import { Client, config, credentials, ORIGIN } from "../../helpers/harness.js"

/** Collects what `authorize` receives, and signs nobody in. */
function recordingClient() {
  const seen: Array<Record<string, unknown>> = []
  const client = new Client(config({ providers: [credentials({ authorize: (c) => (seen.push(c as never), null) })] }))
  return { client, seen }
}

async function postForm(client: Client, body: string): Promise<Response> {
  const csrfToken = await client.csrfToken()
  return client.request("/auth/callback/credentials", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: `csrfToken=${csrfToken}&${body}`,
  })
}

describe("percent-encoding of form bodies, queries and paths", () => {
  it.each([
    ["a lone %", "username=%&password=x"],
    ["% followed by one hex digit at the end", "username=a%4"],
    ["a UTF-8 sequence cut by &", "username=%C3&password=%A9"],
    ["a UTF-8 sequence cut by =", "user%C3=%A9"],
    ["an overlong encoding", "username=%C0%AF"],
    ["an encoded surrogate", "username=%ED%A0%80"],
    ["a bad escape in a key", "us%ZZer=alice"],
  ])("refuses %s in a form body with 400 before authorize runs", async (_, body) => {
    const { client, seen } = recordingClient()
    const res = await postForm(client, body)
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ code: "FORM_BODY_INVALID" })
    expect(seen).toEqual([])
  })

  it("decodes valid escapes, multi-byte characters and + in keys and values; the first value of a key wins", async () => {
    const { client, seen } = recordingClient()
    await postForm(client, "username=%C3%A9l%C3%A8ve+%2B1&pass%77ord=a%26b%3Dc&username=second&%F0%9F%94%91=%E2%9C%93")
    expect(seen).toEqual([{ username: "élève +1", password: "a&b=c", "🔑": "✓" }])
  })

  it("refuses a query whose escapes do not decode, and reads one that does", async () => {
    const client = new Client(config())
    expect((await client.request("/auth/signin?callbackUrl=%C3&x=%A9")).status).toBe(400)
    const res = await client.request(`/auth/signin?callbackUrl=${encodeURIComponent(`${ORIGIN}/caf\u00e9`)}`)
    expect(res.status).toBe(200)
    expect(await res.text()).toContain(`${ORIGIN}/caf%C3%A9`)
  })

  it("decodes an escaped provider id in the path and refuses a bad escape there", async () => {
    const client = new Client(config({ providers: [credentials({ id: "my creds" })] }))
    const csrfToken = await client.csrfToken()
    const form = { csrfToken, username: "alice", password: "wonderland" }
    expect((await client.request("/auth/callback/my%20creds", { form })).status).toBe(302)
    expect(client.jar.has("authlib.session-token")).toBe(true)
    expect((await client.request("/auth/callback/my%2", { form })).status).toBe(400)
  })
})
