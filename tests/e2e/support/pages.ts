import { DEMO_OVERLAY_KEY, DEMO_SESSIONS } from '../../../app/db/seed.server'
import type { LANGS } from './i18n'

const live = DEMO_SESSIONS.miaLive

/** Every page of docs/product.md §3.1, with the key of its page title. */
export const PUBLIC_PAGES: Array<{ path: string; title: string | ((lang: (typeof LANGS)[number]) => string) }> = [
	{ path: '', title: 'home.title' },
	{ path: '/shop', title: 'shop.title' },
	{ path: '/shop?returnPath=%2Fen%2Fterms', title: 'shop.title' },
	{ path: '/terms', title: 'pages.terms.title' },
	{ path: '/privacy', title: 'pages.privacy.title' },
	{ path: '/imprint', title: 'pages.imprint.title' },
	{ path: '/confirm?confirmed=1', title: 'pages.confirm.title' },
	{ path: '/register', title: 'pages.register.title' },
	{ path: '/password-reset', title: 'pages.password-reset.title' },
	{ path: '/password-reset?changePassword=true', title: 'pages.password-reset.title' },
	{ path: '/creator-agreement', title: 'pages.creator-agreement.title' },
	{ path: '/login', title: 'pages.login.title' },
	// A visitor asking for settings is sent to sign in first.
	{ path: '/settings', title: 'pages.login.title' },
	{ path: `/session/${live.id}`, title: () => live.title },
	{ path: `/${live.platform}/${live.channel}`, title: () => live.title },
	{ path: `/overlay/${live.id}?key=${DEMO_OVERLAY_KEY}`, title: 'pages.overlay.title' },
]
