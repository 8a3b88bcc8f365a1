import { join } from 'node:path'
import { Resvg } from '@resvg/resvg-js'
import { logoMarkSvg } from '#app/components/logo-mark'
import { keptAnswers } from '#app/utils/kept-answers'
import { SESSION_CARD } from './session-card'

export { SESSION_CARD }

/**
 * The share card of a session page (Open Graph and Twitter, 1200×630 PNG):
 * the live or ended badge, the platform, the title and the creator, on the
 * site's share-image background. Drawn from SVG by resvg with the DejaVu
 * fonts shipped in content/fonts (the container has no system fonts; they
 * cover Latin, Turkish and most scripts a title may use).
 */


const FONT_DIR = 'content/fonts'
let fontFiles: string[] | null = null
function fonts(): string[] {
	fontFiles ??= ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf'].map((name) => join(process.cwd(), FONT_DIR, name))
	return fontFiles
}

const escapeXml = (text: string) => text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`)

/**
 * Breaks `text` into at most `maxLines` lines of about `perLine` characters
 * at spaces (a word longer than a line is cut), with an ellipsis when cut short.
 */
export function wrapText(text: string, perLine: number, maxLines: number): string[] {
	const words = text.trim().split(/\s+/).filter(Boolean)
	const lines: string[] = []
	let line = ''
	for (let word of words) {
		while (word.length > perLine) {
			if (line) lines.push(line)
			lines.push(word.slice(0, perLine))
			word = word.slice(perLine)
			line = ''
		}
		if (!line) line = word
		else if (line.length + 1 + word.length <= perLine) line += ` ${word}`
		else {
			lines.push(line)
			line = word
		}
	}
	if (line) lines.push(line)
	if (lines.length <= maxLines) return lines
	const kept = lines.slice(0, maxLines)
	const last = kept[maxLines - 1]!
	kept[maxLines - 1] = `${last.length >= perLine ? last.slice(0, perLine - 1) : last}…`
	return kept
}

export interface SessionCardText {
	status: 'active' | 'ended'
	badge: string
	platform: string
	title: string
	byline: string
	tagline: string
}

export function sessionCardSvg(card: SessionCardText): string {
	const mark = logoMarkSvg().replace(/^<svg[^>]*>/, '').replace(/<\/svg>$/, '')
	const lines = wrapText(card.title, 28, 3)
	const badgeWidth = 40 + card.badge.length * 22
	const badgeColor = card.status === 'active' ? '#dc2626' : '#4b4560'
	const titleTop = 262
	return `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630" viewBox="0 0 1200 630">
<defs>
<radialGradient id="glow" cx="0.2" cy="0.15" r="0.9"><stop offset="0" stop-color="#3b1d6e"/><stop offset="0.6" stop-color="#16121f"/><stop offset="1" stop-color="#0f0d17"/></radialGradient>
<linearGradient id="accent" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="#a78bfa"/><stop offset="1" stop-color="#f472b6"/></linearGradient>
</defs>
<rect width="1200" height="630" fill="url(#glow)"/>
<g transform="translate(80 56) scale(1.25)">${mark}</g>
<text x="180" y="118" font-family="DejaVu Sans" font-weight="bold" font-size="44" fill="#f4f2fa">Dareboost</text>
<rect x="80" y="176" rx="22" width="${badgeWidth}" height="44" fill="${badgeColor}"/>
<text x="${80 + badgeWidth / 2}" y="207" text-anchor="middle" font-family="DejaVu Sans" font-weight="bold" font-size="26" fill="#ffffff">${escapeXml(card.badge)}</text>
<text x="${104 + badgeWidth}" y="208" font-family="DejaVu Sans" font-weight="bold" font-size="30" fill="#c4b5fd">${escapeXml(card.platform)}</text>
${lines.map((line, i) => `<text x="80" y="${titleTop + 56 + i * 68}" font-family="DejaVu Sans" font-weight="bold" font-size="56" fill="#f4f2fa">${escapeXml(line)}</text>`).join('\n')}
<text x="82" y="${titleTop + 56 + (lines.length - 1) * 68 + 62}" font-family="DejaVu Sans" font-size="36" fill="url(#accent)">${escapeXml(card.byline)}</text>
<text x="82" y="590" font-family="DejaVu Sans" font-size="28" fill="#b3acc9">${escapeXml(card.tagline)}</text>
</svg>`
}

/** A card's PNG: kept for its text (a session's card changes only when it ends), 200 at most. */
export const sessionCardPng = keptAnswers(200, (card: SessionCardText) => JSON.stringify(card), (card) =>
	new Resvg(sessionCardSvg(card), {
		fitTo: { mode: 'width', value: SESSION_CARD.width },
		font: { loadSystemFonts: false, fontFiles: fonts(), defaultFontFamily: 'DejaVu Sans' },
	})
		.render()
		.asPng(),
)
