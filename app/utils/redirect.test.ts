import { expect, test } from 'vitest'
import { safeRedirectPath } from './redirect'

const APP = 'https://app.example'

/** Where a browser goes with `Location: <value>` from a page deep in the app. */
function browserTarget(location: string): URL {
	return new URL(location, `${APP}/en/login`)
}

test.each([
	['/en/session/1?x=1#dares', '/en/session/1?x=1#dares'],
	['/en', '/en'],
	['/de/settings?tab=security', '/de/settings?tab=security'],
	['/en/twitch/some_channel#top', '/en/twitch/some_channel#top'],
	['/en/shop?returnPath=%2Fen%2Fsession%2F3', '/en/shop?returnPath=%2Fen%2Fsession%2F3'],
	['/tr/kanal?q=%C3%A7%C3%B6z', '/tr/kanal?q=%C3%A7%C3%B6z'],
	['/en/./terms', '/en/terms'],
	['/en/session/../terms', '/en/terms'],
	['/es/sesi%C3%B3n', '/es/sesi%C3%B3n'],
])('the same-origin path %j survives as %j', (value, expected) => {
	expect(safeRedirectPath(value, '/fallback')).toBe(expected)
})

/** Every hostile form falls back: open redirects through encoding, dot segments, control characters and schemes. */
const hostile: Array<[string, unknown]> = [
	['absolute https', 'https://evil.example/'],
	['absolute http, upper case scheme', 'HTTP://evil.example'],
	['protocol-relative', '//evil.example/'],
	['protocol-relative with path', '//evil.example/en/login'],
	['triple slash', '///evil.example'],
	['slash backslash', '/\\evil.example'],
	['backslash backslash', '\\\\evil.example'],
	['slash backslash backslash', '/\\\\evil.example'],
	['encoded backslash', '/%5cevil.example'],
	['encoded backslash, upper case', '/%5C%5Cevil.example'],
	['encoded slash', '/%2fevil.example'],
	['encoded slash pair', '/%2F%2Fevil.example'],
	['dot segment then double slash', '/.//evil.example'],
	['dot-dot segment then double slash', '/..//evil.example'],
	['encoded dot then double slash', '/%2e//evil.example'],
	['encoded dot-dot then double slash', '/%2e%2e//evil.example'],
	['mixed encoded dot-dot', '/.%2e//evil.example'],
	['language then dot-dot then double slash', '/en/..//evil.example'],
	['two levels up then double slash', '/en/x/../..//evil.example'],
	['tab between the slashes', '/\t/evil.example'],
	['newline between the slashes', '/\n/evil.example'],
	['carriage return between the slashes', '/\r/evil.example'],
	['encoded tab', '/%09/evil.example'],
	['encoded newline', '/%0a/evil.example'],
	['NUL byte', '/en\u0000'],
	['encoded NUL', '/en%00'],
	['DEL character', '/\u007f/evil.example'],
	['javascript scheme', 'javascript:alert(1)'],
	['javascript scheme with a slash', '/javascript:alert(1)//'.replace(/^\//, '')],
	['data scheme', 'data:text/html,<script>alert(1)</script>'],
	['vbscript scheme', 'vbscript:msgbox(1)'],
	['userinfo protocol-relative', '//user@evil.example'],
	['userinfo with app host', '//app.example@evil.example'],
	['relative path without slash', 'en/terms'],
	['dot-relative path', './evil'],
	['leading space then protocol-relative', ' //evil.example'],
	['very long input', `/${'a'.repeat(5000)}`],
	['empty', ''],
	['null', null],
	['number', 42],
	['object', { toString: () => '/en' }],
]

test.each(hostile)('%s falls back', (_name, value) => {
	expect(safeRedirectPath(value, '/fallback')).toBe('/fallback')
})

test.each([
	['fullwidth solidus pair', '/\uff0f\uff0fevil.example'],
	['fraction slash pair', '/\u2044\u2044evil.example'],
	['division slash', '/\u2215evil.example'],
	['ideographic full stop dots', '/\u3002\u3002//evil.example'],
	['one-dot leader', '/\u2024//evil.example'],
])('the lookalike %s stays a path on this site', (_name, value) => {
	const result = safeRedirectPath(value, '/fallback')
	expect(result.startsWith('/')).toBe(true)
	expect(result.startsWith('//')).toBe(false)
	expect(browserTarget(result).origin).toBe(APP)
})

test('no accepted value sends a browser to another origin', () => {
	for (const [, value] of hostile) {
		expect(browserTarget(safeRedirectPath(value, '/fallback')).origin).toBe(APP)
	}
})
