import { expect, test } from 'vitest'
import { safeRedirectPath } from './redirect'

test('same-origin paths pass, with their query and hash', () => {
	expect(safeRedirectPath('/en/session/1?x=1#dares', '/')).toBe('/en/session/1?x=1#dares')
})

test.each([
	['https://evil.example/'],
	['//evil.example/'],
	['/\\evil.example'],
	['\\\\evil.example'],
	['javascript:alert(1)'],
	['en/terms'],
	['/en\u0000'],
	['/\t/evil.example'],
	[''],
	[null],
	[42],
])('%j falls back', (value) => {
	expect(safeRedirectPath(value, '/fallback')).toBe('/fallback')
})
