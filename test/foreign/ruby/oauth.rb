# frozen_string_literal: true

require 'strscan'
require 'uri'
require 'oauth'
require 'oauth/request_proxy/rack_request'
require 'oauth/signature/hmac/sha1'
require 'rack/oauth2'

# HMAC-SHA256 for OAuth 1.0a: same construction as HMAC-SHA1 (RFC 5849, 3.4.2) with SHA-256.
module OAuth::Signature::HMAC
  class SHA256 < OAuth::Signature::Base
    implements 'hmac-sha256'

    def body_hash
      Base64.strict_encode64(OpenSSL::Digest::SHA256.digest(request.body || ''))
    end

    private

    def digest
      OpenSSL::HMAC.digest(OpenSSL::Digest.new('sha256'), secret, signature_base_string)
    end
  end
end

module ArticleService
  # Request proxy for ruby-oauth whose parameters are the RFC 5849 (3.4.1.3.1) list of name/value pairs, taken as
  # sent: repeated names (within the query, within the body, or in both) are all kept and all signed, and the
  # pairs are sorted by encoded name, then by encoded value (3.4.1.3.2). The base string URI and the HMAC are
  # still computed by the library.
  class OAuth1PairsProxy < OAuth::RequestProxy::RackRequest
    def initialize(request, pairs, params)
      super(request)
      @pairs = pairs
      @params = params
    end

    # Protocol parameters (each present at most once; checked before), for the library's lookups.
    def parameters
      @params
    end

    # RFC 5849, 3.4.1.3.2: encode names and values (3.6), sort by name then value (byte order), join.
    def normalized_parameters
      @pairs.reject { |name, _| name == 'oauth_signature' }
            .map { |name, value| [Util.oauth_encode(name), Util.oauth_encode(value)] }
            .sort.map { |name, value| "#{name}=#{value}" }.join('&')
    end
  end

  # OAuth 1.0a (RFC 5849) provider: temporary credentials, resource owner authorization, token credentials,
  # and verification of signed resource requests. Signatures are computed by the ruby-oauth library.
  class OAuth1Provider
    METHODS = %w[HMAC-SHA1 HMAC-SHA256].freeze
    FORM = 'application/x-www-form-urlencoded'

    RequestToken = Struct.new(:token, :secret, :consumer, :callback, :user, :verifier, keyword_init: true)
    AccessToken = Struct.new(:token, :secret, :consumer, :user, keyword_init: true)

    def initialize(config)
      @config = config
      @request_tokens = ExpiringStore.new(100_000)
      @access_tokens = ExpiringStore.new(100_000)
      @nonces = ExpiringStore.new(1_000_000)
    end

    # POST /oauth1/request_token
    def request_token(env)
      consumer, params = verify!(env, :request_token)
      cb = params['oauth_callback'].to_s
      raise error(400, 'parameter_absent', 'oauth_callback is required (use "oob" for out-of-band)') if cb.empty?
      raise error(400, 'parameter_rejected', 'oauth_callback must be "oob" or an absolute http(s) URL') unless cb == 'oob' || absolute_url?(cb)
      unless cb == 'oob' || consumer.callback_uris.empty? || consumer.callback_uris.include?(cb)
        raise error(400, 'parameter_rejected', 'oauth_callback is not registered for this consumer')
      end

      rt = RequestToken.new(token: Util.token(18), secret: Util.token, consumer: consumer.key, callback: cb)
      store!(@request_tokens, rt.token, Time.now + @config.lifetimes[:oauth1_request_token], rt)
      form(200, oauth_token: rt.token, oauth_token_secret: rt.secret, oauth_callback_confirmed: 'true',
                oauth_expires_in: @config.lifetimes[:oauth1_request_token])
    end

    # GET or POST /oauth1/authorize?oauth_token=... ; the resource owner is authenticated by the caller.
    def authorize(env, principal)
      token = Rack::Request.new(env).params['oauth_token'].to_s
      rt = @request_tokens.get(token)
      raise HttpError.new(400, 'invalid_token', 'unknown, used or expired oauth_token') unless rt && rt.user.nil?

      rt.user = principal.user.username
      rt.verifier = Util.token(16)
      return form(200, oauth_token: rt.token, oauth_verifier: rt.verifier) if rt.callback == 'oob'

      sep = rt.callback.include?('?') ? '&' : '?'
      loc = rt.callback + sep + URI.encode_www_form(oauth_token: rt.token, oauth_verifier: rt.verifier)
      [302, { 'Location' => loc, 'Content-Type' => 'text/plain; charset=utf-8', 'Cache-Control' => 'no-store' }, ["Redirecting to #{loc}\n"]]
    end

    # POST /oauth1/access_token
    def access_token(env)
      _consumer, params, rt = verify!(env, :access_token)
      unless rt.user && Util.secure_eq?(rt.verifier, params['oauth_verifier'].to_s)
        raise error(401, 'verifier_invalid', 'missing or wrong oauth_verifier, or token not authorized')
      end
      raise error(401, 'token_used', 'request token already exchanged') unless @request_tokens.take(rt.token)

      at = AccessToken.new(token: Util.token(18), secret: Util.token, consumer: rt.consumer, user: rt.user)
      store!(@access_tokens, at.token, Time.now + @config.lifetimes[:oauth1_access_token], at)
      form(200, oauth_token: at.token, oauth_token_secret: at.secret, oauth_expires_in: @config.lifetimes[:oauth1_access_token])
    end

    # Resource request signed with token credentials; returns a Principal.
    def authenticate_resource(env)
      _consumer, _params, at = verify!(env, :resource)
      user = @config.users[at.user] or raise error(401, 'token_revoked', 'the token owner no longer exists')
      Principal.new(scheme: 'oauth1', user: user, client: at.consumer, scopes: Config::SCOPES)
    end

    private

    def verify!(env, stage)
      req = Rack::Request.new(env)
      pairs = request_pairs(env)
      check_duplicates!(pairs)
      params = pairs.select { |name, _| name.start_with?('oauth_') }.to_h
      proxy = OAuth1PairsProxy.new(req, pairs, params)
      required = %w[oauth_consumer_key oauth_signature_method oauth_signature oauth_timestamp oauth_nonce]
      required << 'oauth_token' unless stage == :request_token
      required << 'oauth_verifier' if stage == :access_token
      missing = required.select { |k| params[k].to_s.empty? }
      raise error(400, 'parameter_absent', "missing #{missing.join(', ')}", oauth_parameters_absent: missing.join('&')) unless missing.empty?
      raise error(400, 'version_rejected', 'oauth_version must be 1.0') if params['oauth_version'] && params['oauth_version'] != '1.0'
      unless METHODS.include?(params['oauth_signature_method'].to_s.upcase)
        raise error(400, 'signature_method_rejected', "supported signature methods: #{METHODS.join(', ')}")
      end

      consumer = @config.consumers[params['oauth_consumer_key']] or raise error(401, 'consumer_key_unknown', 'unknown consumer key')
      ts = params['oauth_timestamp'].to_s
      raise error(400, 'parameter_rejected', 'oauth_timestamp must be an integer') unless ts.match?(/\A\d{1,12}\z/)
      if (Time.now.to_i - ts.to_i).abs > @config.clock_skew
        now = Time.now.to_i
        raise error(401, 'timestamp_refused', 'oauth_timestamp outside the accepted window',
                    oauth_acceptable_timestamps: "#{now - @config.clock_skew}-#{now + @config.clock_skew}")
      end
      raise error(400, 'parameter_rejected', 'oauth_nonce too long') if params['oauth_nonce'].to_s.size > 128

      token = lookup_token(stage, params['oauth_token'].to_s, consumer)
      sig = OAuth::Signature.build(proxy) { |_p| [token&.secret.to_s, consumer.secret] }.signature
      raise error(401, 'signature_invalid', 'wrong oauth_signature') unless Util.secure_eq?(sig, params['oauth_signature'])

      check_body_hash!(env, params)

      unless ArticleService.defect?('oauth1-nonce-replay')
        key = [consumer.key, token&.token, params['oauth_nonce']].join("\0")
        fresh = begin
          @nonces.add?(key, Time.now + 2 * @config.clock_skew + 1)
        rescue ExpiringStore::Full
          raise error(503, 'temporarily_unavailable', 'nonce store full')
        end
        raise error(401, 'nonce_used', 'oauth_nonce already used') unless fresh
      end
      [consumer, params, token]
    end

    # OAuth Request Body Hash extension: when oauth_body_hash is sent, it must match the (non-form) body.
    def check_body_hash!(env, params)
      sent = params['oauth_body_hash'] or return
      raise error(400, 'parameter_rejected', 'oauth_body_hash is not allowed with form bodies') if env['CONTENT_TYPE'].to_s.downcase.start_with?(FORM)

      body = env['rack.input'].read.to_s
      env['rack.input'].rewind
      algo = params['oauth_signature_method'].to_s.upcase == 'HMAC-SHA256' ? 'SHA256' : 'SHA1'
      actual = Base64.strict_encode64(OpenSSL::Digest.digest(algo, body))
      raise error(401, 'body_hash_invalid', 'oauth_body_hash does not match the body') unless Util.secure_eq?(actual, sent)
    end

    def lookup_token(stage, value, consumer)
      return nil if stage == :request_token

      store = stage == :access_token ? @request_tokens : @access_tokens
      entry = store.get_with_expiry(value)
      raise error(401, 'token_rejected', 'unknown oauth_token') unless entry && entry[1].consumer == consumer.key
      raise error(401, 'token_expired', 'oauth_token has expired') if entry[0] <= Time.now.to_f

      entry[1]
    end

    # RFC 5849, 3.4.1.3.1: the query, the form body (when Content-Type is application/x-www-form-urlencoded) and
    # the OAuth Authorization header (without "realm"), as one list of decoded name/value pairs, nothing merged.
    def request_pairs(env)
      pairs = Util.form_pairs(env['QUERY_STRING'])
      pairs += Util.form_pairs(Util.body(env)) if env['CONTENT_TYPE'].to_s.downcase.start_with?(FORM)
      pairs + header_pairs(env['HTTP_AUTHORIZATION'])
    rescue ArgumentError
      raise error(400, 'parameter_rejected', 'malformed OAuth Authorization header or parameters')
    end

    HEADER_PARAM = /\s*([^\s=,"]+)\s*=\s*(?:"([^"]*)"|([^\s,"]*))\s*(?:,|\z)/.freeze

    # RFC 5849, 3.5.1: Authorization: OAuth name="value", ... (names and values percent-encoded per 3.6).
    def header_pairs(value)
      m = /\A\s*OAuth(?:\s+|\z)/i.match(value.to_s) or return []
      scanner = StringScanner.new(m.post_match)
      pairs = []
      until scanner.skip(/\s*\z/)
        scanner.scan(HEADER_PARAM) or raise ArgumentError, 'malformed Authorization header'
        pairs << [Util.percent_decode(scanner[1]), Util.percent_decode(scanner[2] || scanner[3])]
      end
      pairs.reject { |name, _| name == 'realm' }
    end

    # RFC 5849, 3.2: a request with duplicated protocol parameters is refused (an oauth_* name sent twice, in
    # one place or in two). Other parameter names may repeat; all their values are signed.
    def check_duplicates!(pairs)
      names = pairs.map(&:first).select { |name| name.start_with?('oauth_') }
      dup = names.tally.select { |_, n| n > 1 }.keys
      raise error(400, 'parameter_rejected', "duplicated protocol parameters: #{dup.join(', ')}") unless dup.empty?
    end

    def store!(store, key, expires, value)
      store.add?(key, expires, value)
    rescue ExpiringStore::Full
      raise error(503, 'temporarily_unavailable', 'token store full')
    end

    def absolute_url?(s)
      u = URI.parse(s)
      %w[http https].include?(u.scheme) && u.host && !u.host.empty?
    rescue URI::Error
      false
    end

    def form(status, h)
      [status, { 'Content-Type' => FORM, 'Cache-Control' => 'no-store' }, [URI.encode_www_form(h)]]
    end

    # OAuth problem reporting: form-encoded body with oauth_problem (+ RFC 9457-style detail).
    def error(status, problem, detail, extra = {})
      OAuthError.new(status, problem, detail, extra, @config.realm)
    end
  end

  class OAuthError < HttpError
    def initialize(status, problem, detail, extra, realm)
      headers = status == 401 ? { 'WWW-Authenticate' => %(OAuth realm="#{realm}") } : {}
      super(status, problem, detail, headers)
      @extra = extra
    end

    def response
      body = URI.encode_www_form({ oauth_problem: code, oauth_problem_advice: message }.merge(@extra))
      [status, headers.merge('Content-Type' => OAuth1Provider::FORM, 'Cache-Control' => 'no-store'), [body]]
    end
  end

  # Bearer token response with the token type spelled as in RFC 6750 ("Bearer").
  class BearerToken < Rack::OAuth2::AccessToken::Bearer
    def token_response(options = {})
      super.merge(token_type: 'Bearer')
    end
  end

  # OAuth 2.0 (RFC 6749) authorization server + RFC 6750 bearer token verification, built on rack-oauth2.
  class OAuth2Provider
    Token = Struct.new(:client, :user, :scopes, :refresh, :code, keyword_init: true)
    Code = Struct.new(:client, :user, :scopes, :redirect_uri, :challenge, :challenge_method, :tokens, keyword_init: true)

    def initialize(config)
      @config = config
      @access = ExpiringStore.new(200_000)
      @refresh = ExpiringStore.new(200_000)
      @codes = ExpiringStore.new(100_000)
      @used_codes = ExpiringStore.new(100_000)
      @token_endpoint = Rack::OAuth2::Server::Token.new { |req, res| token_grant(req, res) }
      @authorize_endpoint = Rack::OAuth2::Server::Authorize.new { |req, res| authorize_grant(req, res) }
    end

    # POST /oauth2/token
    def token(env)
      @token_endpoint.call(env)
    end

    # GET /oauth2/authorize ; principal: the resource owner (Basic or HMAC), checked by the caller.
    def authorize(env, principal)
      env['app.principal'] = principal
      @authorize_endpoint.call(env)
    end

    # POST /oauth2/revoke (RFC 7009)
    def revoke(env)
      req = Rack::OAuth2::Server::Token::Request.new(env)
      client = authenticate_client(req)
      tok = req.params['token'].to_s
      [@access, @refresh].each do |store|
        t = store.get(tok)
        next unless t && t.client == client.client_id

        store.delete(tok)
        next unless store.equal?(@refresh)

        @access.delete_if { |_, a| a.refresh == tok }
        revoke_family(t)
      end
      [200, { 'Content-Type' => 'application/json', 'Cache-Control' => 'no-store' }, ['{}']]
    rescue Rack::OAuth2::Server::Abstract::Error => e
      e.finish
    end

    # Bearer token on a resource request; returns a Principal.
    def authenticate_resource(env)
      req = Rack::OAuth2::Server::Resource::Bearer::Request.new(env)
      value = req.setup!.access_token.to_s
      entry = @access.get_with_expiry(value)
      req.invalid_token!('unknown or revoked access token') unless entry
      if entry[0] <= Time.now.to_f && !ArticleService.defect?('oauth2-expiry-ignored')
        req.invalid_token!('the access token has expired')
      end
      t = entry[1]
      user = t.user && (@config.users[t.user] || req.invalid_token!('the token owner no longer exists'))
      Principal.new(scheme: 'bearer', user: user, client: t.client, scopes: t.scopes)
    end

    private

    def authenticate_client(req)
      client = @config.clients[req.client_id.to_s]
      req.invalid_client! unless client && Util.secure_eq?(client.client_secret, req.client_secret.to_s)
      client
    end

    def token_grant(req, res)
      raise Rack::OAuth2::Server::Token::BadRequest.new(:invalid_request, 'use POST') unless req.post?

      client = authenticate_client(req)
      grant = req.grant_type.to_s
      req.unauthorized_client!("grant type #{grant} not allowed for this client") unless client.grant_types.include?(grant)
      case grant
      when 'password'
        user = @config.users[req.username.to_s]
        req.invalid_grant!('wrong username or password') unless user&.password && Util.secure_eq?(user.password, req.password.to_s)
        res.access_token = issue(client, user.username, scopes!(req, client.scopes), refresh: true)
      when 'client_credentials'
        res.access_token = issue(client, nil, scopes!(req, client.scopes & ['articles']), refresh: false)
      when 'refresh_token'
        old = @refresh.take(req.refresh_token.to_s)
        req.invalid_grant!('unknown, used or expired refresh token') unless old && old.client == client.client_id
        @access.delete_if { |_, t| t.refresh == req.refresh_token.to_s }
        res.access_token = issue(client, old.user, scopes!(req, old.scopes), refresh: true, code: old.code)
      when 'authorization_code'
        res.access_token = exchange_code(req, client)
      end
    end

    def exchange_code(req, client)
      code = @codes.take(req.code.to_s)
      unless code
        # RFC 6749, 4.1.2: a reused code revokes the tokens issued from it.
        used = @used_codes.get(req.code.to_s)
        revoke_family(Token.new(code: req.code.to_s)) if used
        req.invalid_grant!('unknown, used or expired authorization code')
      end
      req.invalid_grant!('code was issued to another client') unless code.client == client.client_id
      req.invalid_grant!('redirect_uri does not match the authorization request') if code.redirect_uri && code.redirect_uri != req.redirect_uri.to_s
      req.verify_code_verifier!(code.challenge, code.challenge_method || 'plain') if code.challenge || req.code_verifier
      @used_codes.add?(req.code.to_s, Time.now + @config.lifetimes[:oauth2_refresh_token], true)
      issue(client, code.user, code.scopes, refresh: true, code: req.code.to_s)
    end

    def revoke_family(tok)
      return unless tok.code

      [@access, @refresh].each { |s| s.delete_if { |_, t| t.code == tok.code } }
    end

    def authorize_grant(req, res)
      client = @config.clients[req.client_id.to_s]
      req.bad_request!(:invalid_request, 'unknown client_id') unless client
      res.redirect_uri = req.verify_redirect_uri!(client.redirect_uris)
      req.unsupported_response_type! unless req.response_type == :code
      req.unauthorized_client! unless client.grant_types.include?('authorization_code')
      if req.code_challenge && !%w[S256 plain].include?(req.code_challenge_method || 'plain')
        req.invalid_request!('unsupported code_challenge_method')
      end
      scopes = begin
        scopes!(req, client.scopes)
      rescue Rack::OAuth2::Server::Token::BadRequest
        req.invalid_scope!
      end
      principal = req.env['app.principal']
      code = Util.token
      c = Code.new(client: client.client_id, user: principal.user.username, scopes: scopes,
                   redirect_uri: req.params['redirect_uri'], challenge: req.code_challenge,
                   challenge_method: req.code_challenge_method)
      @codes.add?(code, Time.now + @config.lifetimes[:oauth2_authorization_code], c)
      res.code = code
      res.approve!
    end

    # Requested scopes (space separated) must be a subset of what is allowed; none requested = all allowed.
    def scopes!(req, allowed)
      requested = req.scope.map(&:to_s).uniq
      return allowed.dup if requested.empty?

      unless (requested - allowed).empty?
        raise Rack::OAuth2::Server::Token::BadRequest.new(:invalid_scope, "allowed scopes: #{allowed.join(' ')}")
      end
      requested
    end

    def issue(client, user, scopes, refresh:, code: nil)
      life = @config.lifetimes[:oauth2_access_token]
      rt = refresh ? Util.token : nil
      t = Token.new(client: client.client_id, user: user, scopes: scopes, refresh: rt, code: code)
      at = Util.token
      @access.add?(at, Time.now + life, t)
      @refresh.add?(rt, Time.now + @config.lifetimes[:oauth2_refresh_token], t) if rt
      BearerToken.new(access_token: at, refresh_token: rt, expires_in: life, scope: scopes)
    rescue ExpiringStore::Full
      raise Rack::OAuth2::Server::Abstract::TemporarilyUnavailable.new(:temporarily_unavailable, 'token store full')
    end
  end
end
