import { mkdtempSync, rmSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { within } from '@testing-library/dom'
import { Window } from 'happy-dom'
import { afterAll, beforeAll, describe, inject, vi } from 'vitest'
import { createDatabase, type Database } from '#app/db/database.server'
import { AppServer, scratchDatabase, signIn } from '#tests/support/app-server'
import { CONSENT_COOKIES } from '#tests/e2e/support/consent'
import { linkInDevMailbox } from '#tests/support/dev-mailbox'
import { tr } from '#tests/e2e/support/i18n'
import type { ServerKind } from '#tests/support/test-server'
import type { Locale } from '#app/i18n/locales'

/**
 * Request-level tests: the production build over HTTP, as a browser without
 * JavaScript meets it (a cookie jar, forms posted with the page's Origin,
 * redirects followed), its HTML read with Testing Library's queries in
 * happy-dom. What a request shows (status, headers, markup, redirects) is
 * tested here; what only a browser shows stays in tests/e2e
 * (docs/decisions/043-tests-by-need.md).
 */

export interface TestServer {
	kind: ServerKind
	url: string
	/** Where the SMTP catcher serves the mails (Postgres server); null: the app's development mailbox. */
	mailbox: string | null
}

declare module 'vitest' {
	export interface ProvidedContext {
		servers: TestServer[]
	}
}

/** Registers the suite once per running server (tests/http/global-setup.ts): PGlite, and Postgres with TEST_DATABASE_URL. */
export function describeEachServer(title: string, suite: (server: TestServer) => void) {
	for (const server of inject('servers')) describe(`${title} (${server.kind})`, () => suite(server))
}

/**
 * One happy-dom window parses every page: nothing in it runs or loads. A
 * preload it would fetch (the page's messages, `as="fetch"`, which no setting
 * turns off) is answered at once with nothing, never sent: the address is
 * only something to resolve relative links against.
 */
const parser = new Window({
	url: 'http://page.invalid/',
	settings: {
		disableJavaScriptEvaluation: true,
		disableJavaScriptFileLoading: true,
		disableCSSFileLoading: true,
		disableIframePageLoading: true,
		fetch: { interceptor: { beforeAsyncRequest: async ({ window }) => new window.Response(null, { status: 204 }) } },
	},
})

/** A page as served: the response, its HTML, and the document parsed from it. */
export class Page {
	readonly document: Document
	readonly screen: ReturnType<typeof within>
	constructor(
		readonly response: Response,
		readonly html: string,
		readonly url: string,
	) {
		this.document = new parser.DOMParser().parseFromString(html, 'text/html') as unknown as Document
		this.screen = within(this.document.body)
	}

	get status() {
		return this.response.status
	}

	get head() {
		return this.document.head
	}

	/** The value of an attribute of the one element `selector` finds in the head. */
	headAttribute(selector: string, attribute: string): string | null {
		const found = this.document.head.querySelectorAll(selector)
		if (found.length !== 1) throw new Error(`${found.length} elements match ${selector} in the head of ${this.url}`)
		return found[0]!.getAttribute(attribute)
	}

	/** Every link's href on the page. */
	hrefs(): string[] {
		return [...this.document.querySelectorAll('a[href]')].map((a) => a.getAttribute('href')!)
	}
}

/**
 * A visitor without JavaScript: keeps its cookies, follows redirects, posts
 * forms as the browser would (the form's fields, the Origin of the site).
 * The cookie jar is one host's (127.0.0.1: the app and its stand-ins, whose
 * cookies have names of their own), by name; paths are not modelled.
 */
export class Visitor {
	readonly cookies = new Map<string, string>()

	constructor(
		readonly server: TestServer,
		private readonly headers: Record<string, string> = {},
	) {}

	/** A returning visitor who has made the cookie choice (as the end-to-end tests start). */
	static decided(server: TestServer, headers: Record<string, string> = {}) {
		const visitor = new Visitor(server, headers)
		for (const [name, value] of Object.entries(CONSENT_COOKIES)) visitor.cookies.set(name, value)
		return visitor
	}

	/** One request, no redirect followed; the cookies it sets are kept. */
	async fetch(path: string, init: RequestInit = {}): Promise<Response> {
		const url = new URL(path, this.server.url)
		const headers = new Headers(init.headers)
		for (const [name, value] of Object.entries(this.headers)) if (!headers.has(name)) headers.set(name, value)
		if (!headers.has('cookie') && this.cookies.size > 0) headers.set('cookie', this.cookieHeader())
		const response = await fetch(url, { ...init, headers, redirect: 'manual' })
		for (const line of response.headers.getSetCookie()) this.keep(line)
		return response
	}

	/** A request, then its redirects (a 303 or 302 after a post becomes a GET, as in a browser). */
	async follow(path: string, init: RequestInit = {}): Promise<{ response: Response; url: string }> {
		let url = new URL(path, this.server.url).toString()
		let response = await this.fetch(url, init)
		for (let hops = 0; response.status >= 300 && response.status < 400 && response.headers.has('location'); hops++) {
			if (hops === 10) throw new Error(`more than 10 redirects from ${path}`)
			url = new URL(response.headers.get('location')!, url).toString()
			// Only to this machine (the app, its loopback stand-ins): a redirect elsewhere is a finding, not a place to go.
			if (new URL(url).hostname !== '127.0.0.1') throw new Error(`${path} redirects off this machine, to ${url}`)
			const keepsMethod = response.status === 307 || response.status === 308
			await response.body?.cancel()
			response = await this.fetch(url, keepsMethod ? init : {})
		}
		return { response, url }
	}

	/** The page at `path`, after its redirects. */
	async page(path: string, init: RequestInit = {}): Promise<Page> {
		const { response, url } = await this.follow(path, init)
		return new Page(response, await response.text(), url)
	}

	/**
	 * Submits a form of `page` as a browser without JavaScript does: its
	 * enabled fields (hidden ones included; checkboxes and radios when
	 * checked), `values` typed into fields the form has (a name it does not
	 * have is an error: a person could not send it), and the submit button's
	 * name and value (`submitter`, else the form's first, as Enter does); then
	 * the redirects. Not modelled: file inputs, multiple values for one name,
	 * and the browser's own constraint validation (required, pattern...).
	 */
	async submit(page: Page, form: Element, values: Record<string, string> = {}, submitter?: Element): Promise<Page> {
		if (form.tagName !== 'FORM') throw new Error(`not a form: <${form.tagName.toLowerCase()}>`)
		const controls = [...form.querySelectorAll('input, select, textarea')].filter((field) => field.getAttribute('name'))
		const names = new Set(controls.map((field) => field.getAttribute('name')!))
		for (const name of Object.keys(values)) if (!names.has(name)) throw new Error(`the form has no field named ${name}`)
		const fields = new URLSearchParams()
		for (const field of controls) {
			const name = field.getAttribute('name')!
			if (field.hasAttribute('disabled') || field.closest('fieldset[disabled]')) continue
			const type = field.getAttribute('type')?.toLowerCase()
			if (type === 'submit' || type === 'button' || type === 'image' || type === 'reset' || type === 'file') continue
			if (Object.hasOwn(values, name)) continue
			if ((type === 'checkbox' || type === 'radio') && !field.hasAttribute('checked')) continue
			if (field.tagName === 'SELECT') {
				const option = field.querySelector('option[selected]') ?? field.querySelector('option')
				if (option) fields.append(name, option.getAttribute('value') ?? option.textContent ?? '')
				continue
			}
			fields.append(name, (field as HTMLInputElement).value ?? field.getAttribute('value') ?? '')
		}
		for (const [name, value] of Object.entries(values)) fields.append(name, value)
		const button = submitter ?? form.querySelector('button:not([type]), button[type="submit"], input[type="submit"]')
		const buttonName = button?.getAttribute('name')
		if (buttonName) fields.append(buttonName, button!.getAttribute('value') ?? '')
		const method = (button?.getAttribute('formmethod') ?? form.getAttribute('method') ?? 'get').toLowerCase()
		const action = new URL(button?.getAttribute('formaction') ?? form.getAttribute('action') ?? page.url, page.url)
		if (method === 'get') {
			action.search = fields.toString()
			return this.page(action.toString())
		}
		return this.page(action.toString(), {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(this.server.url).origin, referer: page.url },
			body: fields.toString(),
		})
	}

	/** Registers through the page's form, follows the mail's link and presses its one button (which signs the account in). */
	async signUpAndConfirm(lang: Locale, email: string, password: string): Promise<Page> {
		const register = await this.page(`/${lang}/register`)
		const form = register.screen.getByLabelText(tr(lang, 'auth.email')).closest('form')!
		const sent = await this.submit(register, form, { email, password })
		sent.screen.getByRole('region', { name: tr(lang, 'auth.email-confirm-title') })
		const confirm = await this.page(await latestMailLink(this.server, email, '/confirm'))
		const button = confirm.screen.getByRole('button', { name: tr(lang, 'auth.email-confirm-button') })
		const confirmed = await this.submit(confirm, button.closest('form')!, {}, button)
		confirmed.screen.getByRole('heading', { name: tr(lang, 'auth.email-confirmed-title') })
		return confirmed
	}

	private cookieHeader() {
		return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ')
	}

	private keep(line: string) {
		const [pair, ...attributes] = line.split(';')
		const at = pair!.indexOf('=')
		const name = pair!.slice(0, at).trim()
		const value = pair!.slice(at + 1).trim()
		const attribute = (key: string) =>
			attributes
				.map((part) => part.split('='))
				.find(([k]) => k!.trim().toLowerCase() === key)?.[1]
				?.trim()
		// Max-Age wins over Expires, as in a browser.
		const maxAge = attribute('max-age')
		const expires = attribute('expires')
		const expired = maxAge !== undefined ? Number(maxAge) <= 0 : expires !== undefined && Date.parse(expires) < Date.now()
		if (expired) this.cookies.delete(name)
		else this.cookies.set(name, value)
	}
}

/** The newest link containing `pathPart` in the newest mail to `to`, polled until it arrives (start-server.js says where mail goes). */
export async function latestMailLink(server: TestServer, to: string, pathPart: string): Promise<string> {
	return vi.waitFor(
		async () => {
			const link = server.mailbox ? await fromSmtp(server.mailbox, to, pathPart) : await fromDevMailbox(server.url, to, pathPart)
			if (!link) throw new Error(`no mail to ${to} with a link to ${pathPart} yet`)
			return link
		},
		{ timeout: 10_000, interval: 100 },
	)
}

async function fromDevMailbox(base: string, to: string, pathPart: string) {
	return linkInDevMailbox(await (await fetch(`${base}/dev/mailbox`)).text(), to, pathPart)
}

async function fromSmtp(mailbox: string, to: string, pathPart: string) {
	const mails = (await (await fetch(`${mailbox}/mails?to=${encodeURIComponent(to)}`)).json()) as Array<{ links: string[] }>
	return mails.at(-1)?.links.find((link) => link.includes(pathPart))
}

/**
 * A request on a connection of its own, with headers fetch() will not send as
 * given (Host) or a body in chunks: node:http, as a hostile client writes it.
 * The connection is not reused (a refused upload closes it).
 */
export function rawRequest(
	server: TestServer,
	path: string,
	{ method = 'GET', headers = {}, chunks = [] }: { method?: string; headers?: Record<string, string>; chunks?: Buffer[] } = {},
): Promise<{ status: number; body: string }> {
	return new Promise((resolve, reject) => {
		const req = request(new URL(path, server.url), { method, headers, agent: false }, (res) => {
			let body = ''
			res.setEncoding('utf8')
			res.on('data', (chunk: string) => (body += chunk))
			res.on('end', () => resolve({ status: res.statusCode!, body }))
		})
		req.on('error', reject)
		for (const chunk of chunks) req.write(chunk)
		req.end()
	})
}

/** A visitor signed in as a demo user, with the cookie choice made. */
export async function signedIn(server: TestServer, email: string): Promise<Visitor> {
	const visitor = Visitor.decided(server)
	for (const pair of (await signIn(server.url, email)).split('; ')) {
		const at = pair.indexOf('=')
		visitor.cookies.set(pair.slice(0, at), pair.slice(at + 1))
	}
	return visitor
}

/** The toast a page carries without JavaScript. */
export function flash(page: Page, type: 'success' | 'error'): string | null {
	return page.document.querySelector(`.flash--${type} strong`)?.textContent ?? null
}

export type StoredMail = { to: string; subject: string; text: string }

/** The mails to `to` on the development mailbox (newest first), once `subject` is among them. */
export async function mailsTo(server: TestServer, to: string, subject: string): Promise<StoredMail[]> {
	return vi.waitFor(
		async () => {
			const page = await Visitor.decided(server).page('/dev/mailbox')
			const mails = [...page.document.querySelectorAll('.mailbox__list > li')]
				.map((li) => ({
					to: li.querySelector('.mailbox__meta strong')?.textContent ?? '',
					subject: li.querySelector('h2')?.textContent ?? '',
					text: li.querySelector('.mailbox__body')?.textContent ?? '',
				}))
				.filter((mail) => mail.to === to)
			if (!mails.some((mail) => mail.subject === subject)) throw new Error(`no mail "${subject}" to ${to} yet`)
			return mails
		},
		{ timeout: 10_000, interval: 100 },
	)
}

/** The operators' console card (a report, held dare, appeal or payout) that shows `text`. */
export function consoleCard(page: Page, text: string): Element {
	const found = [...page.document.querySelectorAll('article.moderation-item')].filter((article) => article.textContent?.includes(text))
	if (found.length !== 1) throw new Error(`${found.length} cards show "${text}"`)
	return found[0]!
}

/**
 * A server of the suite's own (the shared ones must not be changed), started
 * before its tests and stopped after them, with `env` on top of the test
 * defaults: on Postgres on a scratch database, with the owner connection
 * beside it; on PGlite in a data folder of its own, which is one process's
 * database, so the server stops while the owner connection writes. Read
 * `server` and call `withOwner` inside the tests.
 */
export function serverOfItsOwn(kind: ServerKind, name: string, env: Record<string, string> = {}) {
	const own = {} as { server: TestServer; withOwner: <T>(fn: (db: Database) => Promise<T>) => Promise<T> }
	let app: AppServer
	const cleanups: Array<() => Promise<unknown>> = []
	beforeAll(async () => {
		if (kind === 'postgres') {
			const database = await scratchDatabase(`dareboost_${name}`)
			cleanups.push(database.drop)
			app = await AppServer.create(database.url, env)
			await app.start()
			const db = await createDatabase({ url: database.url })
			cleanups.unshift(() => db.close())
			own.withOwner = (fn) => fn(db)
		} else {
			const dataDir = mkdtempSync(join(tmpdir(), `dareboost-${name}-`))
			cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }))
			app = await AppServer.create('', { ...env, PGLITE_DATA_DIR: dataDir })
			await app.start()
			own.withOwner = async (fn) => {
				await app.stop()
				const db = await createDatabase({ dataDir })
				try {
					return await fn(db)
				} finally {
					await db.close()
					await app.start()
				}
			}
		}
		cleanups.unshift(() => app.stop('SIGKILL'))
		own.server = { kind, url: app.url, mailbox: null }
	}, 180_000)
	afterAll(async () => {
		for (const cleanup of cleanups) await cleanup().catch(() => {})
	})
	return own
}
