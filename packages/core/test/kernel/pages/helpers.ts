/**
 * Just enough HTML reading for the page tests: the pages are our own, well-formed output, so a
 * tag scanner is enough to read forms back and to compare a page's tag structure.
 */
import type { Theme } from "../../../src/kernel/types/config.js"

export const theme: Theme = { colorScheme: "light" }

/** Payloads that break out of text, attributes, URLs or CSS when escaping is missing. */
export const XSS = [
  `"><script>alert(1)</script>`,
  `'><img src=x onerror=alert(1)>`,
  "</style><script>alert(1)</script>",
  "`onmouseover=alert(1)`",
  "<!--",
  "&lt;already&gt; &amp; <b>",
] as const

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", "#96": "`" }

export function decodeEntities(s: string): string {
  return s.replace(/&(amp|lt|gt|quot|#39|#96);/g, (_m, name: string) => ENTITIES[name] ?? "")
}

export type Attributes = Record<string, string>

/** Attributes of one start tag, values decoded. A bare attribute (`required`) reads as "". */
export function attributes(tag: string): Attributes {
  const out: Attributes = {}
  const body = tag.replace(/^<[a-z0-9]+/i, "").replace(/\/?>$/, "")
  for (const m of body.matchAll(/([a-z][a-z0-9-]*)(?:="([^"]*)")?/gi)) {
    out[m[1]!.toLowerCase()] = decodeEntities(m[2] ?? "")
  }
  return out
}

/** Every start tag of `name`, as attributes. */
export function tags(html: string, name: string): Attributes[] {
  return [...html.matchAll(new RegExp(`<${name}\\b[^>]*>`, "gi"))].map((m) => attributes(m[0]))
}

export interface ParsedForm {
  attrs: Attributes
  inputs: Attributes[]
  labels: Array<{ for: string; text: string }>
  buttons: string[]
}

function text(fragment: string): string {
  return decodeEntities(fragment.replace(/<[^>]*>/g, "")).trim()
}

/** The forms of a page with their inputs, labels and button texts. */
export function forms(html: string): ParsedForm[] {
  return [...html.matchAll(/(<form\b[^>]*>)([\s\S]*?)<\/form>/gi)].map((m) => ({
    attrs: attributes(m[1]!),
    inputs: tags(m[2]!, "input"),
    labels: [...m[2]!.matchAll(/<label for="([^"]*)">([\s\S]*?)<\/label>/gi)].map((l) => ({
      for: decodeEntities(l[1]!),
      text: text(l[2]!),
    })),
    buttons: [...m[2]!.matchAll(/<button\b[^>]*>([\s\S]*?)<\/button>/gi)].map((b) => text(b[1]!)),
  }))
}

/** Hidden inputs of a form as name -> value. */
export function hidden(form: ParsedForm): Record<string, string> {
  return Object.fromEntries(form.inputs.filter((i) => i.type === "hidden").map((i) => [i.name, i.value]))
}

/**
 * The page's sequence of tag names. Rendering a payload must give the same skeleton as rendering
 * a benign value: any tag the payload managed to open would show up here.
 */
export function skeleton(html: string): string[] {
  return [...html.replace(/<style>[\s\S]*?<\/style>/, "<style></style>").matchAll(/<\/?([a-z0-9!]+)/gi)].map(
    (m) => m[0].toLowerCase(),
  )
}

/** The content of the page's one `<style>` element. */
export function styleOf(html: string): string {
  const found = html.match(/<style>([\s\S]*?)<\/style>/)
  if (!found) throw new Error("page has no <style>")
  return found[1]!
}

/** Visible text of the page body (tags removed, entities decoded). */
export function bodyText(html: string): string {
  const body = html.slice(html.indexOf("<body>"))
  return text(body).replace(/\s+/g, " ")
}

/** Checks every complete document shares: doctype, lang, charset, no script, one style element. */
export function documentProblems(html: string): string[] {
  const problems: string[] = []
  if (!html.startsWith("<!DOCTYPE html>")) problems.push("doctype")
  if (!/<html lang="en">/.test(html)) problems.push("lang")
  if (!/<meta charset="utf-8">/.test(html)) problems.push("charset")
  if (!/<meta name="referrer" content="same-origin">/.test(html)) problems.push("referrer")
  if (/<script/i.test(html)) problems.push("script")
  if ((html.match(/<style>/g) ?? []).length !== 1 || (html.match(/<\/style>/g) ?? []).length !== 1) {
    problems.push("style")
  }
  // Attribute values are blanked first: an escaped payload may spell "onerror=" inside a value.
  const tagsOnly = (html.match(/<[^>]*>/g) ?? []).map((t) => t.replace(/"[^"]*"/g, '""')).join(" ")
  if (/\son[a-z]+=/i.test(tagsOnly)) problems.push("event handler attribute")
  if (!html.trimEnd().endsWith("</html>")) problems.push("end")
  return problems
}
