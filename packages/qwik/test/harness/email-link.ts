/** Opening an e-mail sign-in link through the binding, as a browser would. */
import { ORIGIN } from "./config.js"
import { browserCookies, fakeEvent, type FakeEvent, type FakeInit } from "./fake-event.js"
import { handle, type TestAuth } from "./setup.js"

/**
 * Opens the magic link as a browser would: GET (core may answer a confirmation page with a
 * form), then the form's POST when there is one. Returns the event that ended the flow. `init`
 * gives both requests an environment and a peer address, as a server would.
 */
export async function followLink(auth: TestAuth, url: string, cookie: string, init: Pick<FakeInit, "env" | "clientAddress"> = {}): Promise<FakeEvent> {
  const get = fakeEvent(url, { ...init, cookie })
  await handle(auth, get)
  if (get.recorded.redirect || !get.recorded.sent) return get
  const html = await get.recorded.sent.text()
  const form = /<form([^>]*)>([\s\S]*?)<\/form>/i.exec(html)
  const action = form && /method="post"/i.test(form[1]!) ? /action="([^"]+)"/.exec(form[1]!)?.[1] : undefined
  if (!form || !action) return get
  const fields = new URLSearchParams()
  for (const [, name, value] of form[2]!.matchAll(/<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"/g)) fields.set(name!, decodeEntities(value!))
  const post = fakeEvent(new URL(decodeEntities(action), url).href, {
    ...init,
    method: "POST",
    cookie: browserCookies(cookie, get),
    body: fields.toString(),
    headers: { origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" },
  })
  await handle(auth, post)
  return post
}

function decodeEntities(text: string): string {
  return text.replace(/&amp;/g, "&").replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">")
}
