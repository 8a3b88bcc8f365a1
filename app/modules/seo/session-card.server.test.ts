import { expect, test } from 'vitest'
import { sessionCardPng, sessionCardSvg, wrapText } from './session-card.server'

const card = { status: 'active' as const, badge: 'Live', platform: 'Twitch', title: 'Dares until midnight', byline: 'by mia', tagline: 'Write a dare' }

test('a title wraps at spaces into at most three lines, cut with an ellipsis', () => {
	expect(wrapText('Dares until midnight', 28, 3)).toEqual(['Dares until midnight'])
	expect(wrapText('one two three four', 9, 3)).toEqual(['one two', 'three', 'four'])
	expect(wrapText('one two three four five six', 9, 2)).toEqual(['one two', 'three…'])
	expect(wrapText('a'.repeat(20), 8, 3)).toEqual(['aaaaaaaa', 'aaaaaaaa', 'aaaa'])
	expect(wrapText('  spaced   out  ', 28, 3)).toEqual(['spaced out'])
})

test('what a creator writes is text in the card, never markup', () => {
	const svg = sessionCardSvg({ ...card, title: '</text><image href="https://evil.example/x.png"/>', byline: 'by "a" & <b>' })
	expect(svg).not.toContain('<image')
	expect(svg).not.toContain('<b>')
	expect(svg).toContain('&#60;/text&#62;&#60;image')
	expect(svg).toContain('href=&#34;https://evil.example/x')
	expect(svg).toContain('by &#34;a&#34; &#38; &#60;b&#62;')
})

test('the card is a 1200×630 PNG, drawn once per text', () => {
	const png = sessionCardPng(card)
	expect(png.subarray(1, 4).toString()).toBe('PNG')
	expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 630])
	expect(sessionCardPng({ ...card })).toBe(png)
	expect(sessionCardPng({ ...card, status: 'ended', badge: 'Ended' })).not.toBe(png)
})
