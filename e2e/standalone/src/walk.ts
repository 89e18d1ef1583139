/**
 * A small browser for tests that cross origins over real HTTP(S): a cookie jar per host (the e2e
 * kit's), redirects followed by hand, HTML forms read and submitted. `ca` trusts a test certificate
 * for https.
 */
import { request as httpRequest } from "node:http"
import { request as httpsRequest } from "node:https"
import { CookieJar } from "@authlib/e2e-kit/cookie-jar"

export interface Page {
  url: string
  status: number
  location: string | undefined
  body: string
}

export class Walker {
  private readonly jars = new Map<string, CookieJar>()
  constructor(private readonly ca?: string) {}

  /** One request, cookies sent and kept; no redirect followed. */
  fetch(url: string, init: { method?: string; form?: Record<string, string>; headers?: Record<string, string> } = {}): Promise<Page> {
    const target = new URL(url)
    const jar = this.jars.get(target.host) ?? new CookieJar(target)
    this.jars.set(target.host, jar)
    const body = init.form ? new URLSearchParams(init.form).toString() : undefined
    const headers: Record<string, string> = { ...init.headers }
    const cookie = jar.header(target)
    if (cookie) headers.cookie = cookie
    if (body !== undefined) (headers["content-type"] = "application/x-www-form-urlencoded"), (headers["content-length"] = String(Buffer.byteLength(body)))
    const send = target.protocol === "https:" ? httpsRequest : httpRequest
    return new Promise((resolve, reject) => {
      const req = send(target, { method: init.method ?? (body ? "POST" : "GET"), headers, ...(this.ca ? { ca: this.ca } : {}) }, (res) => {
        jar.store(res.headers["set-cookie"] ?? [], target)
        let text = ""
        res.setEncoding("utf8")
        res.on("data", (chunk: string) => (text += chunk))
        res.on("end", () => resolve({ url, status: res.statusCode!, location: res.headers.location, body: text }))
      })
      req.setTimeout(15_000, () => req.destroy(new Error(`timeout: ${url}`)))
      req.on("error", reject)
      req.end(body)
    })
  }

  /** Follows redirects from `url` (at most 20) and answers the page it lands on. */
  async follow(url: string, init: Parameters<Walker["fetch"]>[1] = {}): Promise<Page> {
    let page = await this.fetch(url, init)
    for (let hops = 0; page.status >= 300 && page.status < 400 && page.location; hops++) {
      if (hops === 20) throw new Error(`too many redirects from ${url}`)
      page = await this.fetch(new URL(page.location, page.url).href)
    }
    return page
  }
}

/** The first form of an HTML page: its absolute action and its named inputs' values. */
export function readForm(html: string, base: string): { action: string; fields: Record<string, string> } {
  const form = /<form\b[^>]*\baction="([^"]*)"[^>]*>([\s\S]*?)<\/form>/i.exec(html)
  if (!form) throw new Error(`no form on the page: ${html.slice(0, 300)}`)
  const fields: Record<string, string> = {}
  for (const input of form[2]!.matchAll(/<input\b[^>]*>/gi)) {
    const name = /\bname="([^"]*)"/.exec(input[0])?.[1]
    if (name) fields[name] = (/\bvalue="([^"]*)"/.exec(input[0])?.[1] ?? "").replaceAll("&amp;", "&")
  }
  return { action: new URL(form[1]!.replaceAll("&amp;", "&"), base).href, fields }
}
