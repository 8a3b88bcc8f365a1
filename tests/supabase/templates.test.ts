import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { LOCALE_CODES, type Locale } from '#app/i18n/locales'
import { createSupabaseAuth } from '#app/modules/account/backends/supabase/backend.server'
import { APP_URL, Browser, expectOk } from './browser'
import { FakeGoTrue } from './fake-gotrue'

/**
 * supabase/config.toml and supabase/templates: Supabase renders one template
 * per mail type with Go's html/template, and the templates pick the language
 * from the user's metadata (.Data.locale). Go is not part of this project's
 * toolchain, so `render` below implements the small part of Go's template
 * language the templates may use (comments, trim markers, variables,
 * printf "%v", if/else if/else on eq, fields) and throws on anything else:
 * a template that grows beyond it fails here and must be checked again with
 * Go's own html/template before the subset is extended.
 */

const ROOT = join(import.meta.dirname, '..', '..')
const CONFIG = readFileSync(join(ROOT, 'supabase', 'config.toml'), 'utf8')

type Data = Record<string, unknown>

function render(template: string, data: Data): string {
	// Comments, then trim markers (Go trims the whitespace next to "{{-" and "-}}").
	const source = template
		.replace(/\{\{-?\s*\/\*[\s\S]*?\*\/\s*-?\}\}/g, (m) => (m.startsWith('{{-') ? '{{-}}' : m.endsWith('-}}') ? '{{-}}' : ''))
		.replace(/\s*\{\{-\s*/g, '{{')
		.replace(/\s*-\}\}\s*/g, '}}')
		.replace(/\{\{\}\}/g, '')
	const tokens = source.split(/(\{\{[\s\S]*?\}\})/)
	const vars = new Map<string, unknown>()
	const value = (expr: string): unknown => {
		expr = expr.trim()
		let m = /^printf "%v" (.+)$/.exec(expr)
		if (m?.[1]) {
			const v = value(m[1])
			return v === undefined || v === null ? '<nil>' : String(v)
		}
		if ((m = /^"([^"]*)"$/.exec(expr))) return m[1]
		if ((m = /^\$(\w+)$/.exec(expr))) {
			if (!vars.has(m[1] ?? '')) throw new Error(`undefined variable ${expr}`)
			return vars.get(m[1] ?? '')
		}
		if ((m = /^\.(\w+)(?:\.(\w+))?$/.exec(expr))) {
			const top = data[m[1] ?? '']
			return m[2] ? (top && typeof top === 'object' ? (top as Data)[m[2]] : undefined) : top
		}
		throw new Error(`unsupported expression: ${expr}`)
	}
	const condition = (expr: string): boolean => {
		const m = /^eq (\S+) (\S+)$/.exec(expr.trim())
		if (!m?.[1] || !m[2]) throw new Error(`unsupported condition: ${expr}`)
		return value(m[1]) === value(m[2])
	}
	// A stack of [taking this branch now, a branch was already taken, parent active].
	const stack: { active: boolean; taken: boolean; parent: boolean }[] = []
	const active = () => stack.every((s) => s.active)
	let out = ''
	for (const token of tokens) {
		const action = /^\{\{([\s\S]*)\}\}$/.exec(token)?.[1]?.trim()
		if (action === undefined) {
			if (active()) out += token
			continue
		}
		let m: RegExpExecArray | null
		if ((m = /^if (.+)$/.exec(action))) {
			const parent = active()
			const yes = parent && condition(m[1] ?? '')
			stack.push({ active: yes, taken: yes, parent })
		} else if ((m = /^else if (.+)$/.exec(action))) {
			const top = stack.at(-1)
			if (!top) throw new Error('else without if')
			const yes = top.parent && !top.taken && condition(m[1] ?? '')
			top.active = yes
			top.taken ||= yes
		} else if (action === 'else') {
			const top = stack.at(-1)
			if (!top) throw new Error('else without if')
			top.active = top.parent && !top.taken
			top.taken = true
		} else if (action === 'end') {
			if (!stack.pop()) throw new Error('end without if')
		} else if ((m = /^\$(\w+) :?= (.+)$/.exec(action))) {
			if (active()) vars.set(m[1] ?? '', value(m[2] ?? ''))
			else if (action.includes(':=')) vars.set(m[1] ?? '', vars.get(m[1] ?? ''))
		} else if (active()) {
			out += String(value(action) ?? '')
		}
	}
	if (stack.length > 0) throw new Error('unclosed if')
	return out
}

/** The `subject` and `content_path` of `[auth.email.template.<kind>]`. */
function templateConfig(kind: string): { subject: string; contentPath: string } {
	const section = new RegExp(`\\[auth\\.email\\.template\\.${kind}\\]\\nsubject = '([^']*)'\\ncontent_path = "([^"]+)"`).exec(CONFIG)
	if (!section?.[1] || !section[2]) throw new Error(`no [auth.email.template.${kind}] with subject and content_path`)
	return { subject: section[1], contentPath: section[2] }
}

function template(kind: string): string {
	const path = join(ROOT, templateConfig(kind).contentPath)
	expect(existsSync(path), path).toBe(true)
	return readFileSync(path, 'utf8')
}

function hrefs(html: string): string[] {
	return [...html.matchAll(/href="([^"]*)"/g)].map((m) => (m[1] ?? '').replaceAll('&amp;', '&'))
}

const SUBJECTS: Record<string, Record<Locale, string>> = {
	confirmation: {
		en: 'Confirm your Dareboost account',
		de: 'Bestätige dein Dareboost-Konto',
		es: 'Confirma tu cuenta de Dareboost',
		tr: 'Dareboost hesabını doğrula',
	},
	recovery: {
		en: 'Reset your Dareboost password',
		de: 'Setze dein Dareboost-Passwort zurück',
		es: 'Restablece tu contraseña de Dareboost',
		tr: 'Dareboost şifreni sıfırla',
	},
}

/** A phrase each language's body must contain (the informal address the app uses: du, tú, sen). */
const BODY: Record<string, Record<Locale, string>> = {
	confirmation: {
		en: 'Please confirm your e-mail address',
		de: 'Bitte bestätige deine E-Mail-Adresse',
		es: 'Confirma tu dirección de correo electrónico',
		tr: 'e-posta adresini doğrula',
	},
	recovery: {
		en: 'Choose a new password',
		de: 'Wähle ein neues Passwort',
		es: 'Elige una contraseña nueva',
		tr: 'Yeni bir şifre belirle',
	},
}

describe('config.toml', () => {
	test('confirmations on, the resend countdown as mail frequency, TOTP on, redirects to the app allowed', () => {
		expect(CONFIG).toMatch(/^\[auth\.email\][^[]*^enable_confirmations = true$/m)
		expect(CONFIG).toMatch(/^max_frequency = "60s"$/m)
		expect(CONFIG).toMatch(/^\[auth\.mfa\.totp\]\nenroll_enabled = true\nverify_enabled = true$/m)
		expect(CONFIG).toMatch(/^site_url = "http:\/\/localhost:3000"$/m)
		expect(CONFIG).toContain('"http://localhost:3000/**"')
		expect(CONFIG).toMatch(/^minimum_password_length = 6$/m)
	})

	test.each(['confirmation', 'recovery', 'magic_link'])('[auth.email.template.%s] points at a template that exists', (kind) => {
		expect(template(kind).length).toBeGreaterThan(500)
	})

	test.each(['confirmation', 'recovery'])('the %s subject is in the user language, English otherwise', (kind) => {
		const { subject } = templateConfig(kind)
		for (const locale of LOCALE_CODES) expect(render(subject, { Data: { locale } })).toBe(SUBJECTS[kind]?.[locale])
		expect(render(subject, { Data: {} })).toBe(SUBJECTS[kind]?.en)
		expect(render(subject, { Data: { locale: 'fr' } })).toBe(SUBJECTS[kind]?.en)
	})
})

describe('templates', () => {
	test.each(LOCALE_CODES)('confirmation [%s]: the language from .Data.locale and the link to /confirm with token_hash', (locale) => {
		const redirectTo = `${APP_URL}/${locale}/confirm?redirect-to=%2F${locale}%2Fsession%2Fabc`
		const html = render(template('confirmation'), { Data: { locale }, RedirectTo: redirectTo, TokenHash: 'pkce_0123abcd', SiteURL: APP_URL })
		expect(html).toContain(`<html lang="${locale}">`)
		expect(html).toContain(BODY.confirmation?.[locale])
		for (const other of LOCALE_CODES.filter((l) => l !== locale)) expect(html).not.toContain(BODY.confirmation?.[other])
		const links = hrefs(html)
		expect(links).toHaveLength(2)
		for (const link of links) {
			const url = new URL(link)
			expect(url.origin + url.pathname).toBe(`${APP_URL}/${locale}/confirm`)
			expect(Object.fromEntries(url.searchParams)).toEqual({ 'redirect-to': `/${locale}/session/abc`, token_hash: 'pkce_0123abcd', type: 'signup' })
		}
	})

	test.each(LOCALE_CODES)('recovery [%s]: the link to the change-password page with the token', (locale) => {
		const redirectTo = `${APP_URL}/${locale}/password-reset?changePassword=true`
		const html = render(template('recovery'), { Data: { locale }, RedirectTo: redirectTo, TokenHash: 'pkce_feed', SiteURL: APP_URL })
		expect(html).toContain(BODY.recovery?.[locale])
		for (const link of hrefs(html)) {
			const url = new URL(link)
			expect(url.pathname).toBe(`/${locale}/password-reset`)
			expect(Object.fromEntries(url.searchParams)).toEqual({ changePassword: 'true', token: 'pkce_feed' })
		}
	})

	test('no locale in the metadata (a provider account) falls back to English; magic links go to /confirm in the user language', () => {
		const html = render(template('confirmation'), { Data: null, RedirectTo: `${APP_URL}/en/confirm?redirect-to=%2Fen`, TokenHash: 'h' })
		expect(html).toContain('<html lang="en">')
		expect(html).toContain(BODY.confirmation?.en)
		const magic = render(template('magic_link'), { Data: { locale: 'tr' }, SiteURL: APP_URL, TokenHash: 'h' })
		expect(hrefs(magic)[0]).toBe(`${APP_URL}/tr/confirm?token_hash=h&type=magiclink`)
	})
})

describe('the links the templates build work with the adapter', () => {
	let fake: FakeGoTrue
	beforeEach(async () => {
		fake = await FakeGoTrue.start()
	})
	afterEach(async () => {
		await fake.close()
	})

	test('sign-up mail -> /confirm signs in; reset mail -> password-reset page -> new password', async () => {
		const { accounts, auth } = createSupabaseAuth({ url: fake.url, anonKey: 'anon', appUrl: APP_URL })
		// The browser that signs up opens the mail (a link opened elsewhere confirms without signing in).
		const browser = new Browser()
		browser.take(await accounts.signUp(browser.request('/tr/register'), { email: 'tara@example.com', password: 'correct horse', locale: 'tr', redirectTo: '/tr/shop' }))
		const signupMail = fake.mails.at(-1)
		const user = fake.userByEmail('tara@example.com')
		const html = render(template('confirmation'), { Data: user?.userMetadata, RedirectTo: signupMail?.redirectTo, TokenHash: signupMail?.tokenHash })
		expect(html).toContain(BODY.confirmation?.tr)
		const link = new URL(hrefs(html)[0] ?? '')
		const confirmed = browser.take(await accounts.confirmEmail(browser.request(link.pathname + link.search, { method: 'GET' })))
		expect(expectOk(confirmed)).toEqual({ redirectTo: '/tr/shop', signedIn: true })
		expect((await auth.getViewer(browser.request('/tr', { method: 'GET' }))).viewer?.email).toBe('tara@example.com')

		await accounts.requestPasswordReset(new Browser().request('/tr/password-reset'), { email: 'tara@example.com', locale: 'tr', redirectTo: '/tr' })
		const resetMail = fake.mails.at(-1)
		const reset = new URL(hrefs(render(template('recovery'), { Data: user?.userMetadata, RedirectTo: resetMail?.redirectTo, TokenHash: resetMail?.tokenHash }))[0] ?? '')
		expect(reset.pathname).toBe('/tr/password-reset')
		// What password-reset.tsx does: ?token= into the form, the form into resetPassword.
		const token = reset.searchParams.get('token') ?? ''
		expect(expectOk(await accounts.resetPassword(new Browser().request('/tr/password-reset'), { token, password: 'new horse 2' }))).toBeNull()
		expect(user?.password).toBe('new horse 2')
	})
})

describe('the template renderer itself', () => {
	test('follows Go: if/else if/else, variables, trim markers, printf of a missing key', () => {
		const t = '{{/* c */}}\n{{- $l := printf "%v" .Data.locale -}}\n A {{ if eq $l "x" }}X{{ else if eq $l "<nil>" }}NIL{{ else }}E{{ end }}'
		expect(render(t, { Data: {} })).toBe('A NIL')
		expect(render(t, { Data: { locale: 'x' } })).toBe('A X')
		expect(render(t, { Data: { locale: 'y' } })).toBe('A E')
		expect(() => render('{{ len .Data }}', {})).toThrow(/unsupported/)
		expect(() => render('{{ if eq .A "b" }}', {})).toThrow(/unclosed/)
	})
})
