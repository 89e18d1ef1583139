/**
 * Text and attribute values for the stand-in IdPs' hand-written HTML and XML: `&<>"'` as numeric
 * character references, which both HTML and XML read back as the character.
 */
export const escape = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
