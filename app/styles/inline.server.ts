import { readFileSync } from 'node:fs'
import { join } from 'node:path'

const BUILT_STYLESHEET = /^\/assets\/[\w.-]+\.css$/

/**
 * Reads the client build's stylesheets (`/assets/….css`) for the page's HTML
 * to carry them inline (app/styles/stylesheets.tsx), each file once. Answers
 * undefined for any other URL (the dev server's stylesheets, which it
 * updates in place) and for a file it cannot read: the page then links it.
 * `clientBuild` is where server.js serves the build's files from, relative
 * to the working directory as there.
 */
export function stylesheetReader(clientBuild = 'build/client'): (href: string) => string | undefined {
	const texts = new Map<string, string | undefined>()
	return (href) => {
		if (!BUILT_STYLESHEET.test(href)) return undefined
		if (!texts.has(href)) {
			let text: string | undefined
			try {
				text = readFileSync(join(clientBuild, href), 'utf8')
			} catch {
				text = undefined
			}
			texts.set(href, text)
		}
		return texts.get(href)
	}
}
