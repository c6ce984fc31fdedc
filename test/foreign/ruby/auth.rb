# frozen_string_literal: true

require 'base64'
require 'json'
require 'openssl'
require 'securerandom'
require 'time'
require 'rack'
require 'rack/auth/basic'
require 'uri'

module ArticleService
  DEFECTS = ENV.fetch('DEFECT', '').split(',').map(&:strip).reject(&:empty?).freeze

  def self.defect?(name)
    DEFECTS.include?(name)
  end

  # An error that becomes an application/problem+json response (RFC 9457).
  class HttpError < StandardError
    attr_reader :status, :code, :headers

    def initialize(status, code, detail, headers = {})
      super(detail)
      @status = status
      @code = code
      @headers = headers
    end
  end

  module Util
    module_function

    # Constant-time comparison that does not leak the length either.
    def secure_eq?(a, b)
      return false if a.nil? || b.nil?

      a = a.to_s.b
      b = b.to_s.b
      Rack::Utils.secure_compare(OpenSSL::Digest::SHA256.digest(a), OpenSSL::Digest::SHA256.digest(b)) && a == b
    end

    def token(bytes = 32)
      SecureRandom.urlsafe_base64(bytes)
    end

    def tls?(env)
      env['rack.url_scheme'] == 'https'
    end

    # The request body (rack.input is a rewindable StringIO holding the whole, size-checked body).
    def body(env)
      input = env['rack.input'] or return ''
      data = input.read.to_s
      input.rewind
      data
    end

    # application/x-www-form-urlencoded string -> list of [name, value] pairs, in order, repeated names kept
    # (W3C HTML 4.01, 17.13.4: "+" is a space, %XX an octet; "name" without "=" has an empty value).
    # Raises ArgumentError on malformed percent-encoding.
    def form_pairs(str)
      str.to_s.split('&').reject(&:empty?).map do |part|
        name, value = part.split('=', 2)
        [URI.decode_www_form_component(name), URI.decode_www_form_component(value.to_s)]
      end
    end

    # Percent-decoding without the "+" rule (OAuth Authorization header values, RFC 5849, 3.5.1 and 3.6).
    def percent_decode(str)
      URI.decode_www_form_component(str.to_s.gsub('+', '%2B'))
    end

    # RFC 5849, 3.6: UTF-8 octets, everything but ALPHA / DIGIT / "-" / "." / "_" / "~" as %XX (uppercase).
    def oauth_encode(str)
      str.to_s.b.gsub(/[^A-Za-z0-9\-._~]/n) { |c| format('%%%02X', c.ord) }
    end
  end

  # Thread-safe map whose entries expire; bounded in size.
  class ExpiringStore
    class Full < StandardError; end

    def initialize(max_entries)
      @max = max_entries
      @h = {}
      @m = Mutex.new
      @ops = 0
    end

    # Adds key unless a live entry exists; returns true when added.
    def add?(key, expires_at, value = true)
      @m.synchronize do
        now = Time.now.to_f
        housekeeping(now)
        old = @h[key]
        return false if old && old[0] > now
        raise Full, 'store full' if @h.size >= @max

        @h[key] = [expires_at.to_f, value]
        true
      end
    end

    def get(key)
      @m.synchronize do
        e = @h[key]
        e && e[0] > Time.now.to_f ? e[1] : nil
      end
    end

    # Like get, but also returns entries whose lifetime is over (so callers can say "expired").
    def get_with_expiry(key)
      @m.synchronize { @h[key]&.dup }
    end

    def delete(key)
      @m.synchronize { @h.delete(key)&.last }
    end

    # Atomically removes and returns a live entry.
    def take(key)
      @m.synchronize do
        e = @h.delete(key)
        e && e[0] > Time.now.to_f ? e[1] : nil
      end
    end

    def delete_if
      @m.synchronize { @h.delete_if { |k, (_, v)| yield k, v } }
    end

    private

    def housekeeping(now)
      @ops += 1
      return unless @ops % 1000 == 0 || @h.size >= @max

      @h.delete_if { |_, (exp, _)| exp <= now }
    end
  end

  # Who made a request. user is nil for an OAuth 2 client_credentials token.
  Principal = Struct.new(:scheme, :user, :client, :scopes, keyword_init: true) do
    def scope?(s)
      scopes.include?(s)
    end

    def name
      user ? user.username : "client:#{client}"
    end
  end

  # Authenticates requests to protected resources with Basic, HMAC, OAuth 1.0a or OAuth 2 bearer tokens.
  class Authenticator
    HMAC_RE = /\Ahmac\s+([^:\s]{1,64}):(?:([A-Za-z0-9._~-]{1,128}):)?([A-Za-z0-9+\/_-]{20,100}={0,2})\z/i.freeze
    MONTHS = %w[jan feb mar apr may jun jul aug sep oct nov dec].freeze
    DATE_RE = /\A(?:(?:mon|tue|wed|thu|fri|sat|sun),\s*)?(\d{1,2})\s+([a-z]{3})\s+(\d{4})\s+(\d{2}):(\d{2}):(\d{2})(?:\s+(?:gmt|utc|z|\+0000))?\z/i.freeze
    OAUTH1_QUERY_KEYS = %w[oauth_signature oauth_consumer_key].freeze

    attr_reader :config, :hmac_nonces

    def initialize(config, oauth1, oauth2)
      @config = config
      @oauth1 = oauth1
      @oauth2 = oauth2
      @hmac_nonces = ExpiringStore.new(1_000_000)
      @dummy = Util.token
    end

    def challenges(env, only = nil)
      r = config.realm
      list = []
      list << %(Basic realm="#{r}", charset="UTF-8") if Util.tls?(env)
      list << %(Bearer realm="#{r}") << %(OAuth realm="#{r}") if Util.tls?(env) && only.nil?
      list << %(hmac realm="#{r}")
      list.join(', ')
    end

    def unauthorized(env, code, detail, only = nil)
      HttpError.new(401, code, detail, 'WWW-Authenticate' => challenges(env, only))
    end

    # Returns [scheme, value] of the credentials carried by the request, or nil.
    def credentials(env)
      authz = env['HTTP_AUTHORIZATION']
      authn = env['HTTP_AUTHENTICATION']
      params = begin
        names = Util.form_pairs(env['QUERY_STRING']).map(&:first)
        names += Util.form_pairs(Util.body(env)).map(&:first) if form?(env)
        names.uniq
      rescue ArgumentError
        raise HttpError.new(400, 'invalid_request', 'malformed query string or form body')
      end
      sources = []
      sources << [:hmac, authn] if authn
      if authz
        scheme = authz[/\A\s*([A-Za-z0-9_-]+)/, 1].to_s.downcase
        sources << [{ 'basic' => :basic, 'bearer' => :bearer, 'oauth' => :oauth1, 'hmac' => :hmac }[scheme] || :unknown, authz]
      end
      sources << [:bearer, nil] if params.include?('access_token')
      sources << [:oauth1, nil] if (params & OAUTH1_QUERY_KEYS).any? && !sources.any? { |s, _| s == :oauth1 }
      raise HttpError.new(400, 'multiple_credentials', 'the request carries more than one set of credentials') if sources.size > 1

      sources.first
    end

    # Returns a Principal, nil (no credentials) or raises HttpError.
    def authenticate(env, allowed = %i[basic hmac oauth1 bearer])
      scheme, value = credentials(env)
      return nil unless scheme
      raise unauthorized(env, 'unsupported_scheme', 'unsupported authentication scheme') if scheme == :unknown

      unless scheme == :hmac || Util.tls?(env) || (scheme == :basic && ArticleService.defect?('basic-over-http'))
        raise HttpError.new(403, 'https_required',
                            'Basic and OAuth credentials are only accepted over HTTPS; they were sent in clear text ' \
                            'and should be considered compromised')
      end
      raise unauthorized(env, 'unsupported_scheme', "#{scheme} credentials are not accepted here", allowed) unless allowed.include?(scheme)

      case scheme
      when :basic then basic(env)
      when :hmac then hmac(env, value)
      when :oauth1 then @oauth1.authenticate_resource(env)
      when :bearer then @oauth2.authenticate_resource(env)
      end
    end

    def form?(env)
      env['CONTENT_TYPE'].to_s.downcase.start_with?('application/x-www-form-urlencoded')
    end

    private

    def full_scopes
      Config::SCOPES
    end

    def basic(env)
      auth = Rack::Auth::Basic::Request.new(env)
      creds = auth.basic? && auth.params.to_s.match?(%r{\A[A-Za-z0-9+/]+={0,2}\z}) ? auth.credentials : nil
      raise unauthorized(env, 'malformed_credentials', 'malformed Basic credentials') unless creds&.size == 2

      user = config.users[creds[0].dup.force_encoding(Encoding::UTF_8)]
      ok = Util.secure_eq?(user&.password || @dummy, creds[1]) && user&.password
      raise unauthorized(env, 'invalid_credentials', 'unknown user or wrong password') unless ok

      Principal.new(scheme: 'basic', user: user, scopes: full_scopes)
    end

    # Signed request: "Authentication: hmac <user>:<digest>" or "hmac <user>:<nonce>:<digest>" (+ Date header).
    def hmac(env, value)
      m = HMAC_RE.match(value.to_s.strip)
      raise unauthorized(env, 'malformed_credentials', 'malformed hmac credentials') unless m

      username, nonce, digest = m.captures
      user = config.users[username]
      verb = env['REQUEST_METHOD']
      path = raw_path(env)
      body_hash = body_hash!(env)
      candidates = if nonce
                     date = env['HTTP_DATE'] or raise unauthorized(env, 'date_required', 'the nonce form needs a Date header')
                     t = parse_date(date) or raise unauthorized(env, 'invalid_date', 'unparsable Date header')
                     check_window!(env, t)
                     date_texts(date).map { |dt| [verb, path, dt, nonce] }
                   else
                     [[verb, path]]
                   end
      candidates.each { |parts| parts << body_hash } if body_hash
      secret = user&.hmac_secret || @dummy
      ok = candidates.map { |parts| valid_digest?(secret, parts.join('+'), digest) }.any?
      if !ok && ArticleService.defect?('hmac-method-fallback')
        ok = candidates.map { |parts| valid_digest?(secret, (['GET'] + parts.drop(1)).join('+'), digest) }.any?
      end
      raise unauthorized(env, 'invalid_signature', 'unknown user or wrong digest') unless ok && user&.hmac_secret

      if nonce && !ArticleService.defect?('hmac-nonce-replay')
        expires = [Time.now, t].max + config.clock_skew + 1
        begin
          fresh = @hmac_nonces.add?("#{username}\0#{nonce}", expires)
        rescue ExpiringStore::Full
          raise HttpError.new(503, 'nonce_store_full', 'too many recent nonces, retry later', 'Retry-After' => '60')
        end
        raise unauthorized(env, 'nonce_replayed', 'this nonce has already been used') unless fresh
      end
      Principal.new(scheme: nonce ? 'hmac-nonce' : 'hmac', user: user, scopes: full_scopes)
    end

    def valid_digest?(secret, message, digest)
      expected = Base64.strict_encode64(OpenSSL::HMAC.digest('SHA256', secret, message))
      Util.secure_eq?(expected.delete('='), digest.tr('-_', '+/').delete('='))
    end

    # The request target exactly as sent on the request line (path and, when present, "?query").
    def raw_path(env)
      raw = env['app.raw_target'] || env['REQUEST_URI'].to_s
      raw = URI.parse(raw).request_uri if raw.match?(%r{\A[a-z][a-z0-9+.-]*://}i)
      raw
    rescue URI::Error
      raise HttpError.new(400, 'invalid_request', 'malformed request target')
    end

    # Optional body protection: Content-SHA256 header (base64 SHA-256 of the body) is appended to the message.
    def body_hash!(env)
      h = env['HTTP_CONTENT_SHA256'] or return nil
      body = env['rack.input'].read.to_s
      env['rack.input'].rewind
      actual = Base64.strict_encode64(OpenSSL::Digest::SHA256.digest(body))
      raise unauthorized(env, 'body_hash_mismatch', 'Content-SHA256 does not match the body') unless Util.secure_eq?(actual, h.strip)

      h.strip
    end

    def parse_date(text)
      m = DATE_RE.match(text.strip) or return nil
      mon = MONTHS.index(m[2].downcase) or return nil
      Time.utc(m[3].to_i, mon + 1, m[1].to_i, m[4].to_i, m[5].to_i, m[6].to_i)
    rescue ArgumentError
      nil
    end

    def check_window!(env, t)
      skew = Time.now - t
      late = skew > config.clock_skew
      early = !ArticleService.defect?('hmac-date-future') && -skew > config.clock_skew
      raise unauthorized(env, 'date_out_of_window', "Date is more than #{config.clock_skew} s away from the server clock") if late || early
    end

    # "<Date without spaces, month in lowercase>"; whole-lowercase is accepted as an equivalent spelling.
    def date_texts(date)
      compact = date.gsub(/\s+/, '')
      month_lower = compact.sub(/(\d)([A-Za-z]{3})(\d)/) { "#{$1}#{$2.downcase}#{$3}" }
      [month_lower, compact.downcase].uniq
    end
  end
end
