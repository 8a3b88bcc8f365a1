import { randomUUID } from 'node:crypto'
import { createContext, type RouterContextProvider } from 'react-router'
import { viewerContext } from '#app/context.server'
import { LOCALE_COOKIE, localeFromPath } from '#app/i18n/locales'
import { CONSENT_COOKIE, CONSENT_IDS_COOKIE, consentEntries, parseConsentCookies } from '#app/modules/consent/entries'
import { consentConfig } from '#app/modules/consent/consent.server'
import { LEGAL_DOCUMENTS } from '#app/modules/legal/documents.server'
import { PLATFORMS } from '#app/modules/sessions/schemas'
import type { Env } from '#app/env.server'
import { cookiePairs } from '#app/utils/cookies'

/**
 * The pages a visitor reads, rendered once and served to every visitor until
 * they change (docs/decisions/040-shared-session-page.md, 041-shared-pages.md):
 * the session page, home and the legal pages.
 *
 * During a stream thousands of viewers open the same session page, most of
 * them not signed in, and its server render (200 dares) costs tens of
 * milliseconds of the one core Node has; home and the legal pages a few. A
 * visitor's page depends only on its address and the visitor's cookie
 * choice, so this keeps the finished HTML of one render and serves it again:
 *  - only to a GET of one of these pages' addresses without a query string
 *    and without any cookie but the language, cookie-choice and analytics
 *    ones (a signed-in viewer, a pending toast, anything else: rendered for
 *    them);
 *  - only when the route offered the page (`sharedRenderContext`: the
 *    page's loader, for a visitor) and the response was a 200 HTML page that
 *    rendered without error and sets no cookie but the language one (the
 *    same for every visitor of the page who does not have it: part of the key);
 *  - each time with a fresh CSP nonce (the one the guard put in this
 *    response's header) and a fresh form key, templated into the HTML where
 *    the render had its own;
 *  - for a session page, until the realtime broadcaster sees a mark on the
 *    session's topic (any change that commits, on any instance, within its
 *    poll) or the session's next vote deadline passes (by the database's
 *    clock); then the next
 *    visitor's page is rendered, and visitors arriving meanwhile wait for that
 *    render and get it, even if a change overtook it (it began before they
 *    came), though it is kept for later visitors only if none did;
 *  - and for SHARED_PAGE_MAX_AGE_MS (1 s) after the render began: then it is
 *    rendered anew, and while that render runs the current page is still
 *    served (nothing changed, only the no-JavaScript countdown ages), for at
 *    most as long again.
 */

/** PostHog's cookies (consent/entries.ts, the analytics entry): set and read in the browser only. */
const ANALYTICS_COOKIE_PREFIX = 'ph_'

/** The renders kept, in bytes of HTML (least recently served dropped first). */
export const SHARED_RENDER_MAX_BYTES = 64 * 1024 * 1024

/**
 * The documents that may be shared (app/routes.ts), without a query string
 * (nor `.data`: React Router's data requests): a session page,
 * `/{lang}/session/{id}` or `/{lang}/{platform}/{channel}`; home, `/{lang}`;
 * a legal page, `/{lang}/terms`... Whether a request of one is shared is
 * still its loader's to say (it offers the page); other addresses are not
 * even tried, so their visitors never wait for each other's renders.
 */
const SHARED_PATH = new RegExp(
	`^/[a-z]{2}(?:/?|/(?:${LEGAL_DOCUMENTS.join('|')})|/(?:session|${PLATFORMS.join('|')})/[^/?]+(?<!\\.data))$`,
)

export interface SharedRenderOffer {
	/** The realtime topic whose marks outdate the page (`session_updates_{id}`); none: only its age does. */
	topic?: string
	/** The page's form key, if it has one (see loadSessionPage): each response gets its own. */
	formKey?: string
	/** When the page outdates itself (a vote's deadline), in ms since the epoch; none: no such moment. */
	until?: number | null
}

/** What a loader may say about the page it loaded (null: this request cannot be shared). */
export interface SharedRenderHint {
	offer(offer: SharedRenderOffer): void
	/** The render failed after its headers: not to be kept (app/entry.server.tsx). */
	refuse(): void
}

export const sharedRenderContext = createContext<SharedRenderHint | null>(null)

/** Where a loader may offer its page: null for a signed-in viewer, or a request that cannot be shared. */
export function visitorShareHint(context: Readonly<RouterContextProvider>): SharedRenderHint | null {
	return context.get(viewerContext) ? null : context.get(sharedRenderContext)
}

/**
 * A loader's word that its page, as a visitor gets it, is the same for every
 * visitor of its address (and what outdates it, if more than its age).
 */
export function offerToVisitors(context: Readonly<RouterContextProvider>, offer: SharedRenderOffer = {}) {
	visitorShareHint(context)?.offer(offer)
}

/** The parts of a request that decide whether it may be shared, and with whom. */
export interface SharedRenderRequest {
	method: string
	host: string | undefined
	/** The request's path and query string, as the client sent it. */
	url: string
	cookie: string | undefined
}

export interface SharedPage {
	/** Whole seconds since the render began (the response's Age header: it comes from a cache). */
	age: number
	status: number
	headers: [string, string][]
	/** The HTML with this response's nonce and form key. */
	body(nonce: string): Buffer
}

interface Entry {
	status: number
	headers: [string, string][]
	/** The HTML (UTF-8) split at the render's nonce and form key; `slots[i]` goes between parts i and i + 1. */
	parts: Buffer[]
	slots: ('nonce' | 'formKey')[]
	topic: string | null
	startedAt: number
	/** The page's next vote deadline (Infinity: none). */
	deadline: number
	bytes: number
}

export interface Capture {
	hint: SharedRenderHint
	/** Whether the response may be kept: offered, a 200 HTML page, no cookie set but the language one. */
	accepts(response: Response): boolean
	/** Keep the response's HTML (rendered with `nonce`). */
	keep(response: Response, body: Buffer, nonce: string): void
	/** The render is over, kept or not: visitors waiting for it go on (more calls change nothing). */
	done(): void
}

export type SharedRenders = ReturnType<typeof createSharedRenders>

type SharedRenderEnv = Pick<Env, 'POSTHOG_KEY' | 'CONSENT_MAX_AGE_DAYS' | 'CONSENT_FORCE_MODAL' | 'APP_URL' | 'SHARED_PAGE_MAX_AGE_MS'>

export function createSharedRenders({
	env,
	maxBytes = SHARED_RENDER_MAX_BYTES,
	now = Date.now,
}: {
	env: SharedRenderEnv
	maxBytes?: number
	now?: () => number
}) {
	/** A render is served for at most this long (the no-JavaScript countdown is then at most this late). */
	const maxAgeMs = env.SHARED_PAGE_MAX_AGE_MS
	const entries = consentEntries(consentConfig(env))
	const pages = new Map<string, Entry>()
	/** The render under way for a key, and what it yields to the visitors waiting for it. */
	const rendering = new Map<string, Promise<Entry | null>>()
	/**
	 * When each topic was last marked (tick, time), for the renders under way:
	 * kept pages of a marked topic are dropped at once, and a render that
	 * took `maxAgeMs` or longer is not kept, so older marks cannot matter.
	 */
	const marked = new Map<string, { tick: number; at: number }>()
	let tick = 0
	let bytes = 0
	let prunedAt = now()

	function drop(key: string) {
		const entry = pages.get(key)
		if (!entry) return
		pages.delete(key)
		bytes -= entry.bytes
	}

	function served(entry: Entry): SharedPage {
		// A new form key only for a page that has one (the session page's).
		const formKey = entry.slots.includes('formKey') ? randomUUID() : ''
		return {
			age: Math.floor((now() - entry.startedAt) / 1000),
			status: entry.status,
			headers: entry.headers,
			body(nonce) {
				const values = { nonce: Buffer.from(nonce), formKey: Buffer.from(formKey) }
				const chunks: Buffer[] = [entry.parts[0]!]
				for (let i = 0; i < entry.slots.length; i++) chunks.push(values[entry.slots[i]!], entry.parts[i + 1]!)
				return Buffer.concat(chunks)
			},
		}
	}

	return {
		/**
		 * The broadcaster saw marks on these topics (app/modules/realtime): their
		 * kept pages go, and the renders of them under way will not be kept.
		 */
		observe(topics: Iterable<string>) {
			const at = now()
			tick++
			const outdated = new Set(topics)
			for (const topic of outdated) marked.set(topic, { tick, at })
			for (const [key, entry] of pages) if (entry.topic !== null && outdated.has(entry.topic)) drop(key)
			if (at - prunedAt < maxAgeMs) return
			prunedAt = at
			for (const [topic, mark] of marked) if (at - mark.at > maxAgeMs) marked.delete(topic)
		},

		/** The key of a request that may be shared, or null. */
		keyFor({ method, host, url, cookie }: SharedRenderRequest): string | null {
			if (maxAgeMs === 0 || method !== 'GET' || !SHARED_PATH.test(url)) return null
			const locale = localeFromPath(url)
			if (!locale) return null
			let localeCookie = false
			for (const [name, value] of cookiePairs(cookie)) {
				if (name === CONSENT_COOKIE || name === CONSENT_IDS_COOKIE) continue
				// PostHog's own cookies (with the visitor's consent to analytics): the server never reads them.
				if (name.startsWith(ANALYTICS_COOKIE_PREFIX)) continue
				// The language cookie when it names the page's language (without it, the page sets it: the same for every such visitor).
				if (name === LOCALE_COOKIE && value === locale) {
					localeCookie = true
					continue
				}
				return null
			}
			const consent = parseConsentCookies(cookie, entries)
			return `${(host ?? '').toLowerCase()} ${url} ${localeCookie ? 'l' : '-'} ${consent.given ? [...consent.enabled].sort().join('~') || '-' : '?'}`
		},

		/** Whether a render of this key is under way. */
		rendering: (key: string) => rendering.has(key),

		/**
		 * Wait for the render of this key under way, and get its page: also when
		 * a change came while it ran (it began before this visitor arrived), not
		 * when a vote on it has ended since. Null when it yielded none.
		 */
		async wait(key: string): Promise<SharedPage | null> {
			const entry = await rendering.get(key)
			return entry && now() < entry.deadline ? served(entry) : null
		},

		/** The kept page for this key, if it is still the session as it is. */
		page(key: string): SharedPage | null {
			const entry = pages.get(key)
			if (!entry) return null
			// Past its age, a page is still served while its next render runs (for at most another maxAgeMs).
			const age = now() - entry.startedAt
			if (now() >= entry.deadline || (age >= maxAgeMs && !rendering.has(key)) || age >= 2 * maxAgeMs) return null
			// Least recently served last.
			pages.delete(key)
			pages.set(key, entry)
			return served(entry)
		},

		/** A render of this key begins: visitors of the same page arriving meanwhile wait for it. */
		capture(key: string): Capture {
			const startedAt = now()
			const startTick = tick
			let offer: SharedRenderOffer | null = null
			let refused = false
			let yielded: Entry | null = null
			let release = (_entry: Entry | null) => {}
			if (!rendering.has(key)) {
				let resolve = (_entry: Entry | null) => {}
				const promise = new Promise<Entry | null>((r) => (resolve = r))
				rendering.set(key, promise)
				release = (entry) => {
					if (rendering.get(key) === promise) rendering.delete(key)
					resolve(entry)
				}
			}
			return {
				hint: {
					offer: (o) => (offer = o),
					refuse: () => (refused = true),
				},
				accepts: (response) =>
					offer !== null &&
					!refused &&
					response.status === 200 &&
					(response.headers.get('content-type') ?? '').startsWith('text/html') &&
					response.headers.getSetCookie().every((cookie) => cookie.startsWith(`${LOCALE_COOKIE}=`)),
				keep(response, body, nonce) {
					if (!offer || refused || nonce === '') return
					const deadline = offer.until ?? Infinity
					if (deadline <= now()) return
					const { parts, slots } = template(body.toString('utf8'), { nonce, formKey: offer.formKey ?? '' })
					const headers = [...response.headers.entries()].filter(([name]) => name !== 'content-length')
					const topic = offer.topic ?? null
					const entry: Entry = { status: response.status, headers, parts, slots, topic, startedAt, deadline, bytes: body.length }
					yielded = entry
					// Kept for later visitors only if no change came while it ran, and it ran in time (see `marked`).
					if ((topic !== null && (marked.get(topic)?.tick ?? 0) > startTick) || now() - startedAt >= maxAgeMs) return
					drop(key)
					pages.set(key, entry)
					bytes += entry.bytes
					for (const oldest of pages.keys()) {
						if (bytes <= maxBytes) break
						drop(oldest)
					}
				},
				done: () => release(yielded),
			}
		},

		/** For tests and the bench: how many pages are kept. */
		size: () => pages.size,
	}
}

/** Split `html` at every occurrence of the given values (random, so never found in content by chance). */
function template(html: string, values: { nonce: string; formKey: string }): { parts: Buffer[]; slots: ('nonce' | 'formKey')[] } {
	const names = (Object.keys(values) as ('nonce' | 'formKey')[]).filter((name) => values[name] !== '')
	const pattern = new RegExp(names.map((name) => values[name].replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|'), 'g')
	const parts: Buffer[] = []
	const slots: ('nonce' | 'formKey')[] = []
	let last = 0
	for (const match of html.matchAll(pattern)) {
		parts.push(Buffer.from(html.slice(last, match.index)))
		slots.push(match[0] === values.nonce ? 'nonce' : 'formKey')
		last = match.index + match[0].length
	}
	parts.push(Buffer.from(html.slice(last)))
	return { parts, slots }
}
