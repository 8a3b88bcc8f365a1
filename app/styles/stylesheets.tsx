import { createContext, useContext } from 'react'
import { useMatches } from 'react-router'

/**
 * A page's stylesheets go inline into the server's HTML, so nothing blocks
 * its first paint but the document itself; the browser links only those a
 * later client-side navigation adds (docs/decisions/053-first-paint.md).
 *
 * A route names its stylesheets (URLs from `?url` imports) in its handle,
 * not in `links`: React Router renders `links` as `<link rel="stylesheet">`,
 * one request each on the first paint's path.
 *
 *   export const handle: StylesheetsHandle = { stylesheets: [sessionsStylesHref] }
 */
export type StylesheetsHandle = { stylesheets: readonly string[] }

/**
 * A built stylesheet's text by its URL, or undefined to link it: given by the
 * server entry (app/styles/inline.server.ts); none in the browser.
 */
const InlineStylesheetContext = createContext<((href: string) => string | undefined) | null>(null)

export const InlineStylesheetProvider = InlineStylesheetContext.Provider

/**
 * React's own stylesheet resources (`precedence`): inlined, React hoists them
 * into <head> before anything else and merges them into one `<style>`; linked,
 * a client-side navigation waits for the file before it shows the page (no
 * unstyled flash), and a file is added once, in the order the page names them.
 */
const PRECEDENCE = 'app'

/** Whether the server's HTML carried the stylesheet inline (its `<style data-href="a b">`, which stays in <head>). */
function inlinedByServer(href: string): boolean {
	return Array.from(document.querySelectorAll<HTMLStyleElement>(`style[data-precedence="${PRECEDENCE}"][data-href]`)).some((style) =>
		(style.dataset.href ?? '').split(' ').includes(href),
	)
}

/** The stylesheets of the matched routes, root first (app/root.tsx renders it in <head>). */
export function Stylesheets() {
	const matches = useMatches()
	const inline = useContext(InlineStylesheetContext)
	const hrefs = new Set(matches.flatMap((match) => (match.handle as Partial<StylesheetsHandle> | undefined)?.stylesheets ?? []))
	return [...hrefs].map((href) => {
		const css = inline?.(href)
		if (css !== undefined) {
			return (
				<style key={href} href={href} precedence={PRECEDENCE}>
					{css}
				</style>
			)
		}
		// Already in the page since the server sent it: React leaves the server's <style> in <head>.
		if (typeof document !== 'undefined' && inlinedByServer(href)) return null
		return <link key={href} rel="stylesheet" href={href} precedence={PRECEDENCE} />
	})
}
