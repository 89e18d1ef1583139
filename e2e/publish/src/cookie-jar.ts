/**
 * A cookie jar for one origin, enough for a sign-in over HTTP: keeps `name=value` from each
 * `Set-Cookie`, drops a cookie that is expired (`Max-Age=0` or an `Expires` in the past) and sends
 * the rest back in a `Cookie` header. Domain and path are not checked (one origin, path `/`).
 */
export class CookieJar {
  readonly #cookies = new Map<string, string>()

  /** Takes the cookies a response sets; returns the response. */
  keep(response: Response): Response {
    for (const line of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = line.split(";")
      const eq = pair.indexOf("=")
      if (eq <= 0) continue
      const name = pair.slice(0, eq).trim()
      const expired = attributes.some((a) => {
        const [key = "", value = ""] = a.split("=").map((s) => s.trim())
        if (key.toLowerCase() === "max-age") return Number(value) <= 0
        if (key.toLowerCase() === "expires") return Date.parse(value) <= Date.now()
        return false
      })
      if (expired) this.#cookies.delete(name)
      else this.#cookies.set(name, pair.slice(eq + 1).trim())
    }
    return response
  }

  get(name: string): string | undefined {
    return this.#cookies.get(name)
  }

  names(): string[] {
    return [...this.#cookies.keys()]
  }

  /** The `Cookie` request header. */
  header(): string {
    return [...this.#cookies].map(([name, value]) => `${name}=${value}`).join("; ")
  }
}
