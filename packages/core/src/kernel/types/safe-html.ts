/**
 * Markup that is already safe to emit verbatim, as `pages/html.ts` builds it. Here, at the bottom of
 * the kernel, so that the declarations of capabilities (a sign-in type's part of the sign-in page)
 * can name it.
 */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value
  }
}
