// A minimal browser for the IdP journey: a cookie jar per origin, manual redirects, HTML forms read
// with the few rules SimpleSAMLphp's templates need (hidden inputs, the form's action).

export interface Page {
  url: string
  status: number
  html: string
}

export class Browser {
  private readonly jar = new Map<string, Map<string, string>>()

  async get(url: string): Promise<Page> {
    return this.follow(url, { method: "GET" })
  }

  async post(url: string, fields: Record<string, string>): Promise<Page> {
    return this.follow(url, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString(),
    })
  }

  private async follow(url: string, init: RequestInit): Promise<Page> {
    let current = url
    let request = init
    for (let hops = 0; hops < 10; hops++) {
      const origin = new URL(current).origin
      const cookies = [...(this.jar.get(origin) ?? new Map()).entries()].map(([k, v]) => `${k}=${v}`).join("; ")
      const response = await fetch(current, {
        ...request,
        redirect: "manual",
        headers: { ...(request.headers as Record<string, string>), ...(cookies ? { cookie: cookies } : {}) },
      })
      this.store(origin, response.headers.getSetCookie())
      const location = response.headers.get("location")
      if (response.status >= 300 && response.status < 400 && location) {
        current = new URL(location, current).toString()
        request = { method: "GET" }
        continue
      }
      return { url: current, status: response.status, html: await response.text() }
    }
    throw new Error(`too many redirects from ${url}`)
  }

  private store(origin: string, setCookies: string[]): void {
    const cookies = this.jar.get(origin) ?? new Map<string, string>()
    for (const header of setCookies) {
      const [pair] = header.split(";")
      const eq = pair?.indexOf("=") ?? -1
      if (pair && eq > 0) cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim())
    }
    this.jar.set(origin, cookies)
  }
}

const ENTITIES: Record<string, string> = { "&amp;": "&", "&quot;": '"', "&#039;": "'", "&#39;": "'", "&lt;": "<", "&gt;": ">" }
const unescape = (s: string) => s.replace(/&(amp|quot|#0?39|lt|gt);/g, (m) => ENTITIES[m] ?? m)

/** The first form of a page: its absolute action and its named inputs' values. */
export function readForm(page: Page): { action: string; fields: Record<string, string> } {
  const form = /<form\b[^>]*>([\s\S]*?)<\/form>/i.exec(page.html)
  if (!form) throw new Error(`no form on ${page.url} (status ${page.status}):\n${page.html.slice(0, 2000)}`)
  const action = /\baction="([^"]*)"/i.exec(form[0])?.[1] ?? ""
  const fields: Record<string, string> = {}
  for (const input of form[1]?.match(/<input\b[^>]*>/gi) ?? []) {
    const name = /\bname="([^"]*)"/i.exec(input)?.[1]
    const value = /\bvalue="([^"]*)"/i.exec(input)?.[1] ?? ""
    if (name) fields[unescape(name)] = unescape(value)
  }
  return { action: new URL(unescape(action) || page.url, page.url).toString(), fields }
}
