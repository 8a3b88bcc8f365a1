import type { Messages } from './en'

const tr = {
	app: {
		name: 'Dareboost',
		description:
			"Twitch, YouTube veya Kick'te canlı yayın yapan favori yayıncına meydan oku: bir görev yaz, jetonlarla destekle ve yapılıp yapılmadığına oy ver.",
	},
	nav: {
		'skip-to-content': 'İçeriğe geç',
		main: 'Ana menü',
		home: 'Canlı yayınlar',
		shop: 'Mağaza',
		'sign-in': 'Giriş yap',
		settings: 'Ayarlar',
		language: 'Dil',
		'choose-language': 'Dil seç',
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
		legal: 'Yasal',
		terms: 'Kullanım koşulları',
		privacy: 'Gizlilik politikası',
		imprint: 'Künye',
		'creator-agreement': 'Yayıncı sözleşmesi',
		'made-for': 'Yayıncılar ve toplulukları için yapıldı.',
	},
	home: {
		title: 'Canlı görevler',
		heading: 'Yayıncına meydan oku. En iyi fikirleri destekle. Sonuca oy ver.',
		lead: 'Bir canlı yayın seç, bir görev yaz, jetonlarla destekle ve yayıncının görevi başarıp başarmadığına toplulukla birlikte karar ver. Bir görev yapılmazsa tüm jetonlar onu destekleyenlere geri döner.',
		'live-now': 'Şu an canlı',
		'no-live': 'Şu anda canlı yayında kimse yok. Birazdan tekrar bak.',
		'session-by': 'Yayıncı: {{creator}}',
		'open-session': 'Yayını aç',
		'search-label': 'Kanal bul',
		'search-placeholder': 'Kanal adı',
		'search-submit': 'Ara',
		'no-results': '“{{query}}” için yayın bulunamadı.',
	},
	pages: {
		shop: {
			title: 'Mağaza',
			lead: 'Jetonlarla görevleri destekleyebilirsin. Jeton paketleri ve ödeme adımı hazırlanıyor.',
			back: 'Kaldığın yere dön',
		},
		terms: {
			title: 'Kullanım koşulları',
			lead: "Bu koşullar, Dareboost'un izleyiciler ve yayıncılar tarafından kullanımını düzenler.",
		},
		privacy: {
			title: 'Gizlilik politikası',
			lead: "Bu politikada Dareboost'un hangi kişisel verileri neden işlediğini ve senin hangi haklara sahip olduğunu bulabilirsin.",
		},
		imprint: {
			title: 'Künye',
			lead: 'Bu hizmetin işleticisi hakkında bilgiler.',
			operator: 'İşletici',
			contact: 'İletişim',
			'not-configured': 'İşletici henüz bilgilerini yayımlamadı.',
		},
		'creator-agreement': {
			title: 'Yayıncı sözleşmesi',
			lead: 'Her yayıncının canlı yayın başlatmadan önce kabul ettiği sözleşme.',
		},
		confirm: {
			title: 'Hesabını doğrula',
		},
		register: {
			title: 'Hesap oluştur',
		},
		'password-reset': {
			title: 'Şifreni sıfırla',
		},
		login: {
			title: 'Giriş yap',
		},
		settings: {
			title: 'Ayarlar',
		},
		session: {
			title: 'Canlı yayın',
			'not-live': 'Bu kanal şu anda canlı yayında değil. Bu, kanalın son yayınıydı.',
			'status-active': 'Canlı',
			'status-ended': 'Sona erdi',
			'min-boost': 'En az destek: {{amount}} jeton',
			'voting-duration': 'Oylama {{seconds}} saniye sürer',
			'watch-on': '{{platform}} üzerinden izle',
		},
		overlay: {
			title: 'Yayın katmanı',
		},
	},
	error: {
		title: 'Bir şeyler ters gitti',
		description: 'Bu sayfayı gösteremedik. Lütfen tekrar dene ya da ana sayfaya dön.',
		'not-found-title': 'Sayfa bulunamadı',
		'not-found-description': 'Aradığın sayfa yok ya da taşınmış.',
		'not-found': 'Sayfa bulunamadı: {{path}}',
		'invalid-route': 'Sayfa bulunamadı: {{path}}',
		status: 'Hata {{status}}',
		'back-home': 'Ana sayfaya dön',
		'forbidden-title': 'İzin verilmedi',
		'cross-site': 'Bu istek başka bir web sitesinden geldiği için reddedildi.',
	},
	validation: {
		'email-required': 'E-posta adresini gir.',
		'email-invalid': 'Geçerli bir e-posta adresi gir.',
		'email-too-long': 'E-posta adresi en fazla 100 karakter olabilir.',
		'password-required': 'Şifreni gir.',
		'password-too-short': 'Şifre en az 6 karakter olmalı.',
		'password-too-long': 'Şifre en fazla 100 karakter olabilir.',
		'username-required': 'Bir kullanıcı adı seç.',
		'username-too-long': 'Kullanıcı adı en fazla 30 karakter olabilir.',
		'username-invalid': 'Yalnızca a–z küçük harfler, rakamlar, nokta ve alt çizgi kullan.',
		'code-required': 'Kodu gir.',
		'code-invalid': '6 haneli kodu ya da bir kurtarma kodunu gir.',
	},
	errors: {
		'unknown-error': 'Bir şeyler ters gitti. Lütfen tekrar dene.',
		'error-not-authenticated': 'Lütfen önce giriş yap.',
		'error-invalid-consent-type': 'Böyle bir onay türü yok.',
		'error-invalid-consent-version': 'Belgenin bu sürümü yok.',
		'error-username-taken': 'Bu kullanıcı adı zaten alınmış.',
		'error-invalid-username': 'Yalnızca a–z küçük harfler, rakamlar, nokta ve alt çizgi kullan (en fazla 30).',
		'error-insufficient-funds': 'Bunun için yeterli jetonun yok.',
		'error-session-already-active': 'Zaten devam eden bir canlı yayının var.',
		'error-channel-already-live': 'Bu kanalda zaten canlı bir yayın var.',
		'error-channel-taken': 'Bu kanal zaten başka bir yayıncıya bağlı.',
	},
} satisfies Messages

export default tr
