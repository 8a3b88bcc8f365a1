import { APIError } from 'better-auth/api'
import { describe, expect, test } from 'vitest'
import { clientIp, normaliseIp } from '#app/modules/account/client-ip.server'
import { toAuthFailure } from '#app/modules/account/backends/better-auth/errors.server'
import { LOCALE_CODES } from '#app/i18n/locales'
import { renderMail, type MailTemplate } from '#app/mail/templates.server'

describe('client address for rate limits', () => {
	const request = (xff?: string) => new Request('http://localhost/', { headers: xff ? { 'x-forwarded-for': xff } : {} })

	test('X-Forwarded-For counts only behind trusted proxies, from the right', () => {
		expect(clientIp(request('203.0.113.5'), 0)).toBeNull()
		expect(clientIp(request('10.9.8.7, 203.0.113.5'), 1)).toBe('203.0.113.5')
		expect(clientIp(request('10.9.8.7, 203.0.113.5, 192.0.2.1'), 2)).toBe('203.0.113.5')
		expect(clientIp(request('203.0.113.5'), 2)).toBeNull()
		expect(clientIp(request(), 1)).toBeNull()
		expect(clientIp(request('not-an-ip'), 1)).toBeNull()
	})

	test('IPv6 counts per /64, IPv4-mapped as IPv4, ports are dropped', () => {
		expect(normaliseIp('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64')
		expect(normaliseIp('2001:db8:1:2::99')).toBe('2001:db8:1:2::/64')
		expect(normaliseIp('2001:db8::1')).toBe('2001:db8:0:0::/64')
		expect(normaliseIp('[2001:db8:1:2::1]:443')).toBe('2001:db8:1:2::/64')
		expect(normaliseIp('::ffff:198.51.100.7')).toBe('198.51.100.7')
		expect(normaliseIp('198.51.100.7:8080')).toBe('198.51.100.7')
		expect(normaliseIp('999.1.1.1')).toBeNull()
	})
})

describe('account mail templates', () => {
	const templates: MailTemplate[] = ['confirm-signup', 'reset-password', 'totp-enabled', 'totp-disabled']

	test('every template exists in every language, each written in that language', () => {
		for (const template of templates) {
			const subjects = new Set<string>()
			const bodies = new Set<string>()
			for (const locale of LOCALE_CODES) {
				const mail = renderMail(template, locale, { url: 'https://dareboost.example/x?a=1&b=2' } as never)
				expect(mail.subject.length, `${template} ${locale}`).toBeGreaterThan(5)
				expect(mail.html).toContain(`<html lang="${locale}">`)
				subjects.add(mail.subject)
				bodies.add(mail.text)
			}
			// Not English copies.
			expect(subjects.size, template).toBe(LOCALE_CODES.length)
			expect(bodies.size, template).toBe(LOCALE_CODES.length)
		}
	})

	test('links appear in text and (escaped) in HTML; notices have no link', () => {
		const url = 'https://dareboost.example/de/confirm?token=abc&redirect-to=%2Fde'
		const mail = renderMail('confirm-signup', 'de', { url })
		expect(mail.text).toContain(url)
		expect(mail.html).toContain('href="https://dareboost.example/de/confirm?token=abc&amp;redirect-to=%2Fde"')
		expect(mail.html).not.toContain('token=abc&redirect')
		const notice = renderMail('totp-disabled', 'tr', {})
		expect(notice.text).not.toMatch(/https?:/)
		expect(notice.subject).toBe('İki adımlı doğrulama kapatıldı')
	})
})

describe('Better Auth refusals as the product error codes', () => {
	test('known codes map to the product codes (docs/product.md §12); database outages to error-connection; the rest is unknown', () => {
		const apiError = (status: 'UNAUTHORIZED' | 'BAD_REQUEST' | 'TOO_MANY_REQUESTS', code: string) => new APIError(status, { code, message: code })
		expect(toAuthFailure(apiError('UNAUTHORIZED', 'INVALID_EMAIL_OR_PASSWORD'))).toEqual({ code: 'error-invalid-credentials', status: 400 })
		expect(toAuthFailure(apiError('BAD_REQUEST', 'PASSWORD_TOO_SHORT'))).toEqual({ code: 'error-weak-password', status: 422, reasons: ['length'] })
		expect(toAuthFailure(apiError('UNAUTHORIZED', 'INVALID_TWO_FACTOR_COOKIE'))).toEqual({ code: 'error-session-not-found', status: 401 })
		expect(toAuthFailure(apiError('TOO_MANY_REQUESTS', 'SOMETHING_NEW'))).toEqual({ code: 'error-rate-limited', status: 429 })
		expect(toAuthFailure(apiError('BAD_REQUEST', 'SOMETHING_NEW'))).toBeNull()
		const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })
		expect(toAuthFailure(refused)).toEqual({ code: 'error-connection', status: 503 })
		expect(toAuthFailure(new Error('wrapped', { cause: Object.assign(new Error('terminating'), { code: '57P01' }) }))).toEqual({
			code: 'error-connection',
			status: 503,
		})
		expect(toAuthFailure(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBeNull()
	})
})
