import { StringDecoder } from 'node:string_decoder'
import { Transform } from 'node:stream'

const MODULE_PRELOAD = '<link rel="modulepreload"'
const LOW = '<link rel="modulepreload" fetchpriority="low"'

/**
 * Gives the page's `<link rel="modulepreload">` hints (React Router's
 * `<Scripts>` renders about 25 in `<head>`, and takes no attributes for
 * them) `fetchpriority="low"`, in the HTML as it streams. The scripts make
 * the page interactive; they need not be in before its first paint, whose
 * stylesheets are inline (ADR 053). At their default, high, priority a fast
 * connection fetches them before the first paint, and Lighthouse's
 * simulation of a slow phone then counts them as blocking it
 * (GoogleChrome/lighthouse#17163): the session page's first paint went from
 * about 1 s to 2.8 s depending on that race. Only the document's head is
 * rewritten; the rest passes through as it comes.
 */
export function lowPriorityModulePreloads(): Transform {
	const decoder = new StringDecoder('utf8')
	let head = true
	// The end of the text so far that may be the start of a hint, kept for the next chunk.
	let carry = ''
	return new Transform({
		transform(chunk: Buffer, _encoding, done) {
			// Through the decoder to the end: it may hold the first bytes of a letter the head's last chunk cut.
			if (!head) return done(null, decoder.write(chunk))
			let text = carry + decoder.write(chunk)
			const end = text.indexOf('</head>')
			if (end !== -1) {
				head = false
				carry = ''
				return done(null, text.slice(0, end).replaceAll(MODULE_PRELOAD, LOW) + text.slice(end))
			}
			text = text.replaceAll(MODULE_PRELOAD, LOW)
			const open = text.lastIndexOf('<')
			carry = open !== -1 && text.length - open < MODULE_PRELOAD.length ? text.slice(open) : ''
			done(null, carry ? text.slice(0, open) : text)
		},
		flush(done) {
			done(null, carry + decoder.end())
		},
	})
}
