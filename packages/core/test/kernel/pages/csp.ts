/** Reading a Content-Security-Policy back, for the page header tests. */

/** The directives of a policy by name. */
export function directives(csp: string | null): Map<string, string[]> {
  if (csp === null) throw new Error("no Content-Security-Policy")
  return new Map(csp.split(";").map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name!, values]))
}

/** `'sha256-<base64>'` of `text`, computed with Web Crypto independently of the code under test. */
export async function sha256Source(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)))
  return `'sha256-${Buffer.from(digest).toString("base64")}'`
}
