/**
 * A browser without JavaScript, in `fetch`: a cookie jar, and server actions submitted as a form
 * without JavaScript does (Next renders `<form action={serverAction}>` with the action's hidden
 * fields, and answers the multipart POST to the page, with Next's own Origin check).
 */
import { CookieJar } from "@authlib/e2e-kit/cookie-jar"

export class Visitor {
  readonly jar: CookieJar
  constructor(readonly origin: string) {
    this.jar = new CookieJar(origin)
  }

  /** A request with the jar's cookies; the answer's cookies are kept. Redirects are not followed. */
  async request(path: string, init: RequestInit = {}): Promise<Response> {
    const url = new URL(path, this.origin)
    const headers = this.jar.apply(new Headers(init.headers), url)
    return this.jar.keep(await fetch(url, { ...init, headers, redirect: "manual" }), url)
  }

  async html(path: string): Promise<string> {
    const res = await this.request(path)
    if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${(await res.text()).slice(0, 500)}`)
    return res.text()
  }

  async json(path: string): Promise<unknown> {
    return (await this.request(path)).json()
  }

  /** Submits the form `#id` of `page` as the browser would without JavaScript; `fields` override its inputs. */
  async submit(page: string, id: string, fields: Record<string, string> = {}, origin = this.origin): Promise<Response> {
    const html = await this.html(page)
    const form = new RegExp(`<form[^>]*id="${id}"[^>]*>([\\s\\S]*?)</form>`).exec(html)?.[1]
    if (!form) throw new Error(`no form #${id} on ${page}`)
    const body = new FormData()
    for (const [, attrs] of form.matchAll(/<input([^>]*)>/g)) {
      const name = /name="([^"]*)"/.exec(attrs!)?.[1]
      if (name) body.append(decode(name), decode(/value="([^"]*)"/.exec(attrs!)?.[1] ?? ""))
    }
    for (const [name, value] of Object.entries(fields)) body.set(name, value)
    return this.request(page, { method: "POST", body, headers: { origin } })
  }
}

function decode(text: string): string {
  return text.replace(/&quot;/g, '"').replace(/&#x27;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&")
}

/** The text of the element `#id` in `html`. */
export function textOf(html: string, id: string): string {
  const found = new RegExp(`id="${id}"[^>]*>([\\s\\S]*?)</`).exec(html)?.[1]
  if (found === undefined) throw new Error(`no #${id} in the page`)
  return decode(found.replace(/<!-- -->/g, ""))
}
