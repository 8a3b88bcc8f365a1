export type FoundChromium = { path: string; source: 'CHROMIUM_PATH' | 'Debian' | 'Playwright' } | { path: undefined; problem: string }
export function findChromium(env?: Record<string, string | undefined>, debianPath?: string): FoundChromium
export const HOW_TO_GET_CHROMIUM: string
