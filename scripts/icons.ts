// Renders the icon set and the share image from the logo mark
// (app/components/logo-mark.ts) into public/: `npm run icons`, then commit
// the files. resvg draws the SVGs; the share image's text uses the system's
// DejaVu Sans (Debian's fonts-dejavu), so the output is the same on every
// machine that has it.
import { writeFileSync } from 'node:fs'
import { Resvg } from '@resvg/resvg-js'
import { logoMarkSvg } from '#app/components/logo-mark'

const out = (name: string, data: Buffer | string) => {
	writeFileSync(`public/${name}`, data)
	console.log(`public/${name}`)
}

function png(svg: string, width: number): Buffer {
	return new Resvg(svg, {
		fitTo: { mode: 'width', value: width },
		font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' },
	})
		.render()
		.asPng()
}

/** An .ico holding one PNG image (every browser since 2010 reads PNG inside ICO). */
function ico(image: Buffer, size: number): Buffer {
	const header = Buffer.alloc(6)
	header.writeUInt16LE(0, 0)
	header.writeUInt16LE(1, 2) // icon
	header.writeUInt16LE(1, 4) // one image
	const entry = Buffer.alloc(16)
	entry.writeUInt8(size % 256, 0)
	entry.writeUInt8(size % 256, 1)
	entry.writeUInt16LE(1, 4) // colour planes
	entry.writeUInt16LE(32, 6) // bits per pixel
	entry.writeUInt32LE(image.length, 8)
	entry.writeUInt32LE(6 + 16, 12)
	return Buffer.concat([header, entry, image])
}

const mark = logoMarkSvg()
out('favicon.svg', `${mark}\n`)
out('favicon.ico', ico(png(mark, 32), 32))
out('icon-192.png', png(mark, 192))
out('icon-512.png', png(mark, 512))
// Maskable: full-bleed tile, the drawing inside the safe zone; iOS rounds the corners itself.
out('icon-maskable-512.png', png(logoMarkSvg({ rounded: false, scale: 0.72 }), 512))
out('apple-touch-icon.png', png(logoMarkSvg({ rounded: false, scale: 0.86 }), 180))

// The site-wide share image (Open Graph, Twitter): 1200×630.
const inner = mark.replace(/^<svg[^>]*>/, '').replace(/<\/svg>$/, '')
const share = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630" viewBox="0 0 1200 630">
<defs>
<radialGradient id="glow" cx="0.2" cy="0.15" r="0.9"><stop offset="0" stop-color="#3b1d6e"/><stop offset="0.6" stop-color="#16121f"/><stop offset="1" stop-color="#0f0d17"/></radialGradient>
<linearGradient id="accent" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="#a78bfa"/><stop offset="1" stop-color="#f472b6"/></linearGradient>
</defs>
<rect width="1200" height="630" fill="url(#glow)"/>
<g transform="translate(96 96) scale(3.5)">${inner}</g>
<text x="96" y="430" font-family="DejaVu Sans" font-weight="bold" font-size="104" fill="#f4f2fa">Dareboost</text>
<text x="100" y="500" font-family="DejaVu Sans" font-size="40" fill="url(#accent)">Dare your streamer live.</text>
<text x="100" y="556" font-family="DejaVu Sans" font-size="30" fill="#b3acc9">Write a dare · boost it with coins · vote on the result</text>
</svg>`
out('og-image.png', png(share, 1200))
