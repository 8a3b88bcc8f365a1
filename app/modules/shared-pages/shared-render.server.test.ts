import { describe, expect, test } from 'vitest'
import { createSharedRenders, type SharedRenderOffer } from './shared-render.server'

const MAX_AGE_MS = 1000
const env = { POSTHOG_KEY: undefined, CONSENT_MAX_AGE_DAYS: 182, CONSENT_FORCE_MODAL: false, APP_URL: 'http://app.test', SHARED_PAGE_MAX_AGE_MS: MAX_AGE_MS }
const SESSION = '/en/session/3f1c2a9e-8d7b-4c6a-9e5f-0a1b2c3d4e5f'
const TOPIC = 'session_updates_3f1c2a9e-8d7b-4c6a-9e5f-0a1b2c3d4e5f'
const NONCE = 'r3nd3rN0nce+/AAAAAAAAA=='
const FORM_KEY = '11111111-2222-4333-8444-555555555555'

function setup(options: { maxBytes?: number; maxAgeMs?: number } = {}) {
	const clock = { now: 1_000_000 }
	const renders = createSharedRenders({ env: { ...env, SHARED_PAGE_MAX_AGE_MS: options.maxAgeMs ?? MAX_AGE_MS }, now: () => clock.now, maxBytes: options.maxBytes })
	const key = (url = SESSION, cookie?: string) => renders.keyFor({ method: 'GET', host: 'app.test', url, cookie })
	/** One render of `key`'s page, as server/app.ts runs it: capture, the loader's offer, keep. */
	function render(k: string, { offer = {}, response = page() }: { offer?: Partial<SharedRenderOffer> | null; response?: Response } = {}) {
		const capture = renders.capture(k)
		if (offer) capture.hint.offer({ topic: TOPIC, formKey: FORM_KEY, until: null, ...offer })
		const kept = capture.accepts(response)
		if (kept) capture.keep(response, Buffer.from(HTML), NONCE)
		capture.done()
		return kept
	}
	return { clock, renders, key, render }
}

const HTML = `<!DOCTYPE html><html><head><script nonce="${NONCE}">1</script></head><body><form><input name="key" value="boost:${FORM_KEY}:d1"/></form><p>Grüße ◎ 200</p><script nonce="${NONCE}">window.__data={"formKey":"${FORM_KEY}"}</script></body></html>`

function page(init: ResponseInit = {}) {
	return new Response(HTML, { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, ...init })
}

describe('which requests share a render', () => {
	test('a GET of a session page (by id or by channel), home or a legal page, without a query string', () => {
		const { key } = setup()
		for (const url of [SESSION, '/de/twitch/mia_plays', '/tr/kick/some_channel', '/en', '/de/', '/es/terms', '/tr/privacy', '/de/imprint', '/en/creator-agreement'])
			expect(key(url), url).not.toBeNull()
		expect(key('/en')).not.toBe(key('/de'))
		for (const url of [
			`${SESSION}?x=1`,
			`${SESSION}.data`,
			`${SESSION}/card.png`,
			'/en?q=mia',
			'/en.data',
			'/en/terms.data',
			'/en/terms/x',
			'/en/login',
			'/en/settings/channels',
			'/xx/twitch/mia',
			'/xx',
			'/xx/terms',
			'/en/shop',
			'/',
		])
			expect(key(url), url).toBeNull()
		// SHARED_PAGE_MAX_AGE_MS=0: nothing is shared.
		expect(setup({ maxAgeMs: 0 }).key()).toBeNull()
		const { renders } = setup()
		for (const method of ['POST', 'HEAD', 'PUT']) expect(renders.keyFor({ method, host: 'app.test', url: SESSION, cookie: undefined })).toBeNull()
	})

	test('only the cookie choice and the page’s own language cookie may come along; they are part of the key', () => {
		const { key } = setup()
		const bare = key()
		const chosen = key(SESSION, 'cookie_consent=true; cookie_consent_ids=twitch')
		const withLocale = key(SESSION, 'i18n_redirected=en')
		expect(new Set([bare, chosen, withLocale]).size).toBe(3)
		// The same choice, written another way, is the same page.
		expect(key(SESSION, 'cookie_consent_ids=twitch~nope; cookie_consent=true')).toBe(chosen)
		expect(key(SESSION, 'cookie_consent=false')).toBe(bare)
		// PostHog's cookies are read in the browser only; the Host's case is not another page.
		expect(key(SESSION, 'ph_phc_abc_posthog=%7B%7D')).toBe(bare)
		expect(setup().renders.keyFor({ method: 'GET', host: 'APP.test', url: SESSION, cookie: undefined })).toBe(bare)
		for (const cookie of ['i18n_redirected=de', 'better-auth.session_token=abc', 'toast-session=e30%3D.sig', 'auth_return_to=/en', 'anything=1', 'flag'])
			expect(key(SESSION, `cookie_consent=true; ${cookie}`), cookie).toBeNull()
	})
})

describe('a kept page', () => {
	test('is served with each response’s own nonce and a new form key, and is otherwise the render', () => {
		const { key, render, renders } = setup()
		const k = key()!
		expect(render(k)).toBe(true)
		const first = renders.page(k)!.body('N0nce0ne==').toString()
		const second = renders.page(k)!.body('N0nceTw0==').toString()
		expect(first).not.toContain(NONCE)
		expect(first).not.toContain(FORM_KEY)
		expect(first.match(/nonce="N0nce0ne=="/g)).toHaveLength(2)
		const keys = (html: string) => [...html.matchAll(/boost:([0-9a-f-]{36}):d1[\s\S]*"formKey":"([0-9a-f-]{36})"/g)].map((m) => [m[1], m[2]])
		const [[formKeyOne, dataKeyOne]] = keys(first) as [string[]]
		const [[formKeyTwo]] = keys(second) as [string[]]
		expect(formKeyOne).toBe(dataKeyOne)
		expect(formKeyOne).not.toBe(formKeyTwo)
		const normal = (html: string) => html.replaceAll(/N0nce\w+==/g, 'N').replaceAll(/[0-9a-f]{8}-[0-9a-f-]{27}/g, 'K')
		expect(normal(first)).toBe(normal(HTML.replaceAll(NONCE, 'N').replaceAll(FORM_KEY, 'K')))
		expect(normal(second)).toBe(normal(first))
		expect(renders.page(k)!.headers).toContainEqual(['content-type', 'text/html; charset=utf-8'])
	})

	test('only a page its route offered, that rendered, as a 200 HTML page setting no cookie but the language one', () => {
		const { key, render, renders } = setup()
		const k = key()!
		expect(render(k, { offer: null })).toBe(false)
		expect(render(k, { response: page({ status: 404 }) })).toBe(false)
		expect(render(k, { response: new Response('{}', { headers: { 'content-type': 'application/json' } }) })).toBe(false)
		expect(render(k, { response: page({ headers: { 'content-type': 'text/html', 'set-cookie': 'toast-session=; Max-Age=0' } }) })).toBe(false)
		const refused = renders.capture(k)
		refused.hint.offer({ topic: TOPIC, formKey: FORM_KEY, until: null })
		refused.hint.refuse()
		expect(refused.accepts(page())).toBe(false)
		refused.done()
		expect(renders.page(k)).toBeNull()
		expect(render(k, { response: page({ headers: { 'content-type': 'text/html', 'set-cookie': 'i18n_redirected=en; Path=/' } }) })).toBe(true)
		expect(renders.page(k)).not.toBeNull()
	})

	test('is outdated by a mark on its session seen after its render began, by its vote deadline and by age', () => {
		const { key, render, renders, clock } = setup()
		const k = key()!
		renders.observe([TOPIC])
		render(k)
		renders.observe(['session_updates_another', 'wallets_someone'])
		expect(renders.page(k)).not.toBeNull()
		renders.observe([TOPIC])
		expect(renders.page(k)).toBeNull()

		render(k)
		clock.now += MAX_AGE_MS - 1
		expect(renders.page(k)).not.toBeNull()
		clock.now += 1
		expect(renders.page(k)).toBeNull()
		// Past its age but current, it is served while its next render runs; not once that render is kept.
		const next = renders.capture(k)
		expect(renders.page(k)?.age).toBe(1)
		renders.observe([TOPIC])
		expect(renders.page(k), 'a change is never served stale').toBeNull()
		next.done()
		render(k)
		clock.now += MAX_AGE_MS
		const rerender = renders.capture(k)
		clock.now += 300
		expect(renders.page(k)).not.toBeNull()
		rerender.hint.offer({ topic: TOPIC, formKey: FORM_KEY, until: null })
		rerender.keep(page(), Buffer.from(HTML), NONCE)
		rerender.done()
		expect(renders.page(k)?.age).toBe(0)
		clock.now += MAX_AGE_MS
		const slow = renders.capture(k)
		// That render began 300 ms before it was kept: twice its age is 2 * MAX_AGE_MS - 300 from here.
		clock.now += MAX_AGE_MS - 301
		expect(renders.page(k)).not.toBeNull()
		clock.now += 1
		expect(renders.page(k), 'not past twice its age, however long the render takes').toBeNull()
		slow.done()

		render(k, { offer: { until: clock.now + 300 } })
		clock.now += 299
		expect(renders.page(k)).not.toBeNull()
		clock.now += 1
		expect(renders.page(k)).toBeNull()
		// Not even while its next render runs: a vote past its deadline is never shown running.
		const after = renders.capture(k)
		expect(renders.page(k)).toBeNull()
		after.done()
		// A deadline already past: not kept at all.
		render(k, { offer: { until: clock.now } })
		expect(renders.page(k)).toBeNull()
	})

	test('a page without a topic (home, a legal page) is outdated by its age only, and has no form key to replace', () => {
		const { key, renders, clock } = setup()
		const k = key('/en/terms')!
		const html = `<html><head><script nonce="${NONCE}">1</script></head><body>${FORM_KEY}</body></html>`
		const capture = renders.capture(k)
		capture.hint.offer({})
		const response = new Response(html, { headers: { 'content-type': 'text/html' } })
		expect(capture.accepts(response)).toBe(true)
		capture.keep(response, Buffer.from(html), NONCE)
		capture.done()
		renders.observe([TOPIC, 'session_updates_another', 'wallets_someone'])
		expect(renders.page(k)!.body('N0nce0ne==').toString()).toBe(html.replace(NONCE, 'N0nce0ne=='))
		clock.now += MAX_AGE_MS
		expect(renders.page(k)).toBeNull()
	})

	test('a render a change overtook, or that took its whole age, is not kept, but the visitors who waited for it get it', async () => {
		const { key, renders, clock } = setup()
		const k = key()!
		for (const overtaken of [() => renders.observe([TOPIC]), () => (clock.now += MAX_AGE_MS)]) {
			const capture = renders.capture(k)
			expect(renders.rendering(k)).toBe(true)
			const waiting = renders.wait(k)
			capture.hint.offer({ topic: TOPIC, formKey: FORM_KEY, until: null })
			overtaken()
			capture.keep(page(), Buffer.from(HTML), NONCE)
			capture.done()
			const got = await waiting
			expect(got?.body('W41ter==').toString()).toContain('nonce="W41ter=="')
			expect(renders.page(k)).toBeNull()
			expect(renders.rendering(k)).toBe(false)
		}
	})

	test('a visitor waiting for a render gets nothing when it yields no page, or when a vote ended since', async () => {
		const { key, renders, clock } = setup()
		const k = key()!
		const notFound = renders.capture(k)
		const first = renders.wait(k)
		notFound.done()
		expect(await first).toBeNull()
		const voting = renders.capture(k)
		const second = renders.wait(k)
		voting.hint.offer({ topic: TOPIC, formKey: FORM_KEY, until: clock.now + 50 })
		voting.keep(page(), Buffer.from(HTML), NONCE)
		clock.now += 50
		voting.done()
		expect(await second).toBeNull()
	})

	test('the pages kept stay within their bytes, the least recently served dropped first', () => {
		const { key, render, renders } = setup({ maxBytes: Buffer.byteLength(HTML) * 2 })
		const [a, b, c] = ['/en/twitch/a', '/en/twitch/b', '/en/twitch/c'].map((url) => key(url)!) as [string, string, string]
		render(a)
		render(b)
		expect(renders.page(a)).not.toBeNull()
		render(c)
		expect(renders.size()).toBe(2)
		expect(renders.page(b)).toBeNull()
		expect(renders.page(a)).not.toBeNull()
		expect(renders.page(c)).not.toBeNull()
	})

	test('a visitor arriving while the page renders waits for that render and gets its page', async () => {
		const { key, renders } = setup()
		const k = key()!
		const capture = renders.capture(k)
		// A second capture of the same key (a visitor who gave up waiting) does not take over the wait.
		renders.capture(k).done()
		expect(renders.rendering(k)).toBe(true)
		let served = false
		const waiting = renders.wait(k).then((p) => (served = p !== null))
		await Promise.resolve()
		expect(served).toBe(false)
		capture.hint.offer({ topic: TOPIC, formKey: FORM_KEY, until: null })
		capture.keep(page(), Buffer.from(HTML), NONCE)
		capture.done()
		await waiting
		expect(served).toBe(true)
		expect(renders.page(k)).not.toBeNull()
		// Once done, nobody waits.
		expect(renders.rendering(k)).toBe(false)
		expect(await renders.wait(k)).toBeNull()
	})
})
