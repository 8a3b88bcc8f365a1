import type { Messages } from './en'

const de = {
	app: {
		name: 'Dareboost',
		description:
			'Fordere deinen Lieblingsstreamer live auf Twitch, YouTube oder Kick heraus: Schreib eine Challenge, gib ihr mit Coins einen Boost und stimm ab, ob sie erfüllt wurde.',
	},
	nav: {
		'skip-to-content': 'Zum Inhalt springen',
		main: 'Hauptnavigation',
		home: 'Live-Sessions',
		shop: 'Coin-Shop',
		'sign-in': 'Anmelden',
		settings: 'Einstellungen',
		language: 'Sprache',
		'choose-language': 'Sprache auswählen',
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
		legal: 'Rechtliches',
		terms: 'Nutzungsbedingungen',
		privacy: 'Datenschutzerklärung',
		imprint: 'Impressum',
		'creator-agreement': 'Creator-Vereinbarung',
		'made-for': 'Gemacht für Creator und ihre Communitys.',
	},
	home: {
		title: 'Live-Challenges',
		heading: 'Fordere deinen Streamer heraus. Gib den besten Ideen einen Boost. Stimm über das Ergebnis ab.',
		lead: 'Wähl eine Live-Session, schreib eine Challenge, unterstütze sie mit Coins und entscheide mit der Community, ob der Creator sie geschafft hat. Wird eine Challenge nicht erfüllt, gehen alle Coins an ihre Booster zurück.',
		'live-now': 'Jetzt live',
		'no-live': 'Gerade ist niemand live. Schau bald wieder vorbei.',
		'session-by': 'mit {{creator}}',
		'open-session': 'Session öffnen',
		'search-label': 'Kanal finden',
		'search-placeholder': 'Kanalname',
		'search-submit': 'Suchen',
		'no-results': 'Keine Session für „{{query}}“ gefunden.',
	},
	pages: {
		shop: {
			title: 'Coin-Shop',
			lead: 'Mit Coins kannst du Challenges boosten. Coin-Pakete und Bezahlung werden gerade eingerichtet.',
			back: 'Zurück zur vorherigen Seite',
		},
		terms: {
			title: 'Nutzungsbedingungen',
			lead: 'Diese Bedingungen regeln die Nutzung von Dareboost durch Zuschauer und Creator.',
		},
		privacy: {
			title: 'Datenschutzerklärung',
			lead: 'Hier erfährst du, welche personenbezogenen Daten Dareboost verarbeitet, warum das geschieht und welche Rechte du hast.',
		},
		imprint: {
			title: 'Impressum',
			lead: 'Angaben zum Betreiber dieses Dienstes.',
			operator: 'Betreiber',
			contact: 'Kontakt',
			'not-configured': 'Der Betreiber hat seine Angaben noch nicht veröffentlicht.',
		},
		'creator-agreement': {
			title: 'Creator-Vereinbarung',
			lead: 'Die Vereinbarung, die jeder Creator akzeptiert, bevor er eine Live-Session startet.',
		},
		confirm: {
			title: 'Bestätige dein Konto',
		},
		register: {
			title: 'Konto erstellen',
		},
		'password-reset': {
			title: 'Passwort zurücksetzen',
		},
		login: {
			title: 'Anmelden',
		},
		settings: {
			title: 'Einstellungen',
		},
		session: {
			title: 'Live-Session',
			'not-live': 'Dieser Kanal ist gerade nicht live. Das war seine letzte Session.',
			'status-active': 'Läuft',
			'status-ended': 'Beendet',
			'min-boost': 'Mindest-Boost: {{amount}} Coins',
			'voting-duration': 'Die Abstimmung dauert {{seconds}} Sekunden',
			'watch-on': 'Auf {{platform}} ansehen',
		},
		overlay: {
			title: 'Stream-Overlay',
		},
	},
	error: {
		title: 'Etwas ist schiefgelaufen',
		description: 'Diese Seite konnte nicht angezeigt werden. Versuch es bitte noch einmal oder geh zurück zur Startseite.',
		'not-found-title': 'Seite nicht gefunden',
		'not-found-description': 'Die Seite, die du suchst, gibt es nicht oder sie wurde verschoben.',
		'not-found': 'Seite nicht gefunden: {{path}}',
		'invalid-route': 'Seite nicht gefunden: {{path}}',
		status: 'Fehler {{status}}',
		'back-home': 'Zur Startseite',
		'forbidden-title': 'Nicht erlaubt',
		'cross-site': 'Diese Anfrage kam von einer anderen Website und wurde abgelehnt.',
	},
	validation: {
		'email-required': 'Gib deine E-Mail-Adresse ein.',
		'email-invalid': 'Gib eine gültige E-Mail-Adresse ein.',
		'email-too-long': 'Die E-Mail-Adresse darf höchstens 100 Zeichen lang sein.',
		'password-required': 'Gib dein Passwort ein.',
		'password-too-short': 'Das Passwort muss mindestens 6 Zeichen lang sein.',
		'password-too-long': 'Das Passwort darf höchstens 100 Zeichen lang sein.',
		'username-required': 'Wähle einen Benutzernamen.',
		'username-too-long': 'Der Benutzername darf höchstens 30 Zeichen lang sein.',
		'username-invalid': 'Verwende nur Kleinbuchstaben a–z, Ziffern, Punkte und Unterstriche.',
		'code-required': 'Gib den Code ein.',
		'code-invalid': 'Gib den 6-stelligen Code oder einen Wiederherstellungscode ein.',
	},
	errors: {
		'unknown-error': 'Etwas ist schiefgelaufen. Bitte versuch es noch einmal.',
		'error-not-authenticated': 'Bitte melde dich zuerst an.',
		'error-invalid-consent-type': 'Diese Art der Zustimmung gibt es nicht.',
		'error-invalid-consent-version': 'Diese Version des Dokuments gibt es nicht.',
		'error-username-taken': 'Dieser Benutzername ist schon vergeben.',
		'error-invalid-username': 'Verwende nur Kleinbuchstaben a–z, Ziffern, Punkte und Unterstriche (höchstens 30).',
		'error-insufficient-funds': 'Dafür hast du nicht genug Coins.',
		'error-session-already-active': 'Du hast bereits eine laufende Session.',
		'error-channel-already-live': 'Auf diesem Kanal läuft bereits eine Session.',
		'error-channel-taken': 'Dieser Kanal ist bereits mit einem anderen Creator verknüpft.',
	},
} satisfies Messages

export default de
