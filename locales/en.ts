// English is the source of truth for every key. The other languages are
// checked against it twice: `satisfies Messages` makes a missing or extra key
// a type error, and locales/locales.test.ts fails on any difference at
// runtime (including empty strings and lost {{placeholders}}).
const en = {
	app: {
		name: 'Dareboost',
		description:
			'Dare your favourite streamer live on Twitch, YouTube or Kick: write a dare, boost it with coins and vote on whether it was done.',
	},
	nav: {
		'skip-to-content': 'Skip to content',
		main: 'Main navigation',
		home: 'Live sessions',
		shop: 'Shop',
		'sign-in': 'Sign in',
		settings: 'Settings',
		language: 'Language',
		'choose-language': 'Choose a language',
	},
	languages: {
		en: 'English',
		de: 'Deutsch',
		es: 'Español',
		tr: 'Türkçe',
	},
	platforms: {
		twitch: 'Twitch',
		youtube: 'YouTube',
		kick: 'Kick',
	},
	footer: {
		legal: 'Legal',
		terms: 'Terms of service',
		privacy: 'Privacy policy',
		imprint: 'Imprint',
		'creator-agreement': 'Creator agreement',
		'made-for': 'Made for creators and their communities.',
	},
	home: {
		title: 'Live dares',
		heading: 'Dare your streamer. Boost the best ideas. Vote on the result.',
		lead: 'Pick a live session, write a dare, back it with coins and decide together whether the creator pulled it off. If a dare is not done, every coin goes back to its boosters.',
		'live-now': 'Live now',
		'no-live': 'No one is live right now. Check back soon.',
		'session-by': 'with {{creator}}',
		'open-session': 'Open session',
		'search-label': 'Find a channel',
		'search-placeholder': 'Channel name',
		'search-submit': 'Search',
		'no-results': 'No session found for “{{query}}”.',
	},
	pages: {
		shop: {
			title: 'Shop',
			lead: 'Coins let you boost dares. Coin packs and checkout are being set up.',
			back: 'Back to where you were',
		},
		terms: {
			title: 'Terms of service',
			lead: 'These terms govern the use of Dareboost by viewers and creators.',
		},
		privacy: {
			title: 'Privacy policy',
			lead: 'This policy explains which personal data Dareboost processes, why, and which rights you have.',
		},
		imprint: {
			title: 'Imprint',
			lead: 'Information about the operator of this service.',
			operator: 'Operator',
			contact: 'Contact',
			'not-configured': 'The operator has not published their details yet.',
		},
		'creator-agreement': {
			title: 'Creator agreement',
			lead: 'The agreement every creator accepts before starting a live session.',
		},
		confirm: {
			title: 'Confirm your account',
		},
		register: {
			title: 'Create an account',
		},
		'password-reset': {
			title: 'Reset your password',
		},
		login: {
			title: 'Sign in',
		},
		settings: {
			title: 'Settings',
		},
		session: {
			title: 'Live session',
			'not-live': 'This channel is not live right now. This was its last session.',
			'status-active': 'Live',
			'status-ended': 'Ended',
			'min-boost': 'Minimum boost: {{amount}} coins',
			'voting-duration': 'Voting lasts {{seconds}} seconds',
			'watch-on': 'Watch on {{platform}}',
		},
		overlay: {
			title: 'Stream overlay',
		},
	},
	error: {
		title: 'Something went wrong',
		description: 'We could not show this page. Please try again, or go back to the home page.',
		'not-found-title': 'Page not found',
		'not-found-description': 'The page you are looking for does not exist or has moved.',
		'not-found': 'Page not found: {{path}}',
		'invalid-route': 'Page Not Found: {{path}}',
		status: 'Error {{status}}',
		'back-home': 'Back to home',
		'forbidden-title': 'Not allowed',
		'cross-site': 'This request came from another website and was refused.',
	},
	validation: {
		'email-required': 'Enter your e-mail address.',
		'email-invalid': 'Enter a valid e-mail address.',
		'email-too-long': 'The e-mail address can be at most 100 characters long.',
		'password-required': 'Enter your password.',
		'password-too-short': 'The password must be at least 6 characters long.',
		'password-too-long': 'The password can be at most 100 characters long.',
		'username-required': 'Choose a username.',
		'username-too-long': 'The username can be at most 30 characters long.',
		'username-invalid': 'Use only lowercase letters a–z, digits, dots and underscores.',
		'code-required': 'Enter the code.',
		'code-invalid': 'Enter the 6-digit code or a recovery code.',
	},
	errors: {
		'unknown-error': 'Something went wrong. Please try again.',
		'error-not-authenticated': 'Please sign in first.',
		'error-invalid-consent-type': 'This kind of consent does not exist.',
		'error-invalid-consent-version': 'This version of the document does not exist.',
		'error-username-taken': 'This username is already taken.',
		'error-invalid-username': 'Use only lowercase letters a–z, digits, dots and underscores (at most 30).',
		'error-insufficient-funds': 'You do not have enough coins for this.',
		'error-session-already-active': 'You already have a live session.',
		'error-channel-already-live': 'This channel already has a live session.',
		'error-channel-taken': 'This channel is already linked to another creator.',
	},
}

export type Messages = typeof en
export default en
