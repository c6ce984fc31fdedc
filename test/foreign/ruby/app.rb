# frozen_string_literal: true

require 'json'
require 'nokogiri'
require_relative 'auth'
require_relative 'oauth'

module ArticleService
  # In-memory article storage; all operations are atomic (one mutex).
  class ArticleStore
    Article = Struct.new(:id, :title, :price, :currency, :description, :seq, keyword_init: true)
    class Full < StandardError; end
    class PreconditionFailed < StandardError; end

    def initialize(max)
      @max = max
      @h = {}
      @seq = 0
      @m = Mutex.new
    end

    def get(id)
      @m.synchronize { @h[id] }
    end

    def list
      @m.synchronize { @h.values.sort_by(&:seq) }
    end

    # Create or completely replace. Returns [created?, article]. check: lambda(existing_or_nil) -> bool.
    def put(id, attrs, check)
      @m.synchronize do
        old = @h[id]
        raise PreconditionFailed unless check.call(old)
        raise Full if old.nil? && @h.size >= @max

        attrs = old.to_h.merge(attrs.compact) if old && ArticleService.defect?('put-merge')
        @h[id] = Article.new(**attrs.slice(:title, :price, :currency, :description), id: id, seq: old ? old.seq : (@seq += 1))
        [old.nil?, @h[id]]
      end
    end

    def create(attrs)
      @m.synchronize do
        raise Full if @h.size >= @max

        id = SecureRandom.hex(8) while id.nil? || @h.key?(id)
        @h[id] = Article.new(**attrs, id: id, seq: @seq += 1)
      end
    end

    def delete(id, check)
      @m.synchronize do
        old = @h[id]
        return nil unless old
        raise PreconditionFailed unless check.call(old)

        @h.delete(id)
      end
    end
  end

  # Parses and validates article XML (root <article>, <title>, <price currency="..">, optional <description>).
  module ArticleXML
    FIELDS = %w[title price description].freeze
    PRICE_RE = /\A\d{1,12}\.\d{1,4}\z/.freeze
    CURRENCY_RE = /\A[a-z]{3}\z/.freeze

    module_function

    def parse(body, partial: false)
      raise invalid('empty body') if body.strip.empty?

      doc = begin
        if ArticleService.defect?('xml-entities')
          Nokogiri::XML(body) { |c| c.strict.noent.dtdload }
        else
          Nokogiri::XML(body) { |c| c.strict.nonet }
        end
      rescue Nokogiri::XML::SyntaxError => e
        raise invalid("malformed XML: #{e.message.strip}")
      end
      if (doc.internal_subset || doc.external_subset) && !ArticleService.defect?('xml-entities')
        raise invalid('DOCTYPE declarations are not accepted')
      end

      root = doc.root
      raise invalid('root element must be <article> without namespace') unless root&.name == 'article' && root.namespace.nil?

      found = {}
      root.children.each do |n|
        if n.element?
          raise invalid("unknown element <#{n.name}>") unless FIELDS.include?(n.name) && n.namespace.nil?
          raise invalid("duplicate element <#{n.name}>") if found.key?(n.name)

          raise invalid("<#{n.name}> must contain text only") unless n.children.all? { |c| c.text? || c.cdata? || c.comment? }

          found[n.name] = n
        elsif (n.text? || n.cdata?) && !n.content.strip.empty?
          raise invalid('unexpected text directly inside <article>')
        elsif n.type == Nokogiri::XML::Node::ENTITY_REF_NODE
          raise invalid('entity references are not accepted')
        end
      end
      attrs = {}
      if (t = found['title'])
        title = t.text
        raise invalid('title must contain 1 to 200 characters') if title.strip.empty? || title.length > 200

        attrs[:title] = title
      end
      if (p = found['price'])
        price = p.text.strip
        raise invalid('price must be a non-negative decimal with a fractional part, e.g. 12.50') unless price.match?(PRICE_RE)

        cur = p['currency'].to_s
        raise invalid('price@currency must be a lowercase 3-letter currency code, e.g. eur') unless cur.match?(CURRENCY_RE)

        attrs[:price] = price
        attrs[:currency] = cur
      end
      if (d = found['description'])
        raise invalid('description must have at most 2000 characters') if d.text.length > 2000

        attrs[:description] = d.text
      end
      unless partial
        missing = %i[title price].reject { |k| attrs.key?(k) }
        raise invalid("missing required element(s): #{missing.join(', ')}") unless missing.empty?

        attrs[:description] ||= nil
      end
      attrs
    end

    def invalid(detail)
      HttpError.new(400, 'invalid_article', detail)
    end

    def build(article, list: false)
      Nokogiri::XML::Builder.new(encoding: 'UTF-8') do |x|
        if list
          x.articles(count: article.size) { article.each { |a| fields(x, a, href: "/articles/#{a.id}") } }
        else
          fields(x, article)
        end
      end.to_xml
    end

    def fields(x, a, attrs = {})
      x.article(attrs) do
        x.title a.title
        x.price(a.price, currency: a.currency)
        x.description a.description if a.description
      end
    end
  end

  # The Rack application serving both listeners.
  class App
    XML = 'application/xml; charset=utf-8'
    ORDER = %w[GET HEAD PUT POST DELETE OPTIONS].freeze
    ID_RE = /\A[A-Za-z0-9][A-Za-z0-9._~-]{0,63}\z/.freeze

    # resource kind => { method => permission }
    RESOURCES = {
      root: { 'GET' => :authenticated, 'HEAD' => :authenticated, 'OPTIONS' => :any },
      articles: { 'GET' => :any, 'HEAD' => :any, 'POST' => :write, 'OPTIONS' => :any },
      article: { 'GET' => :any, 'HEAD' => :any, 'PUT' => :write, 'DELETE' => :write, 'OPTIONS' => :any },
      records: { 'GET' => :records, 'HEAD' => :records, 'OPTIONS' => :any }
    }.freeze

    def initialize(config)
      @config = config
      @store = ArticleStore.new(config.max_articles)
      @oauth1 = OAuth1Provider.new(config)
      @oauth2 = OAuth2Provider.new(config)
      @auth = Authenticator.new(config, @oauth1, @oauth2)
    end

    def call(env)
      dispatch(env)
    rescue OAuthError => e
      e.response
    rescue HttpError => e
      problem(e.status, e.code, e.message, e.headers)
    rescue Rack::OAuth2::Server::Authorize::BadRequest => e
      problem(400, e.error.to_s, e.description.to_s)
    rescue Rack::OAuth2::Server::Abstract::Error => e
      e.realm ||= @config.realm
      e.finish
    rescue Rack::QueryParser::ParameterTypeError, Rack::QueryParser::InvalidParameterError, Rack::Utils::InvalidParameterError
      problem(400, 'invalid_request', 'malformed query string or form body')
    rescue StandardError => e
      warn "ERROR #{e.class}: #{e.message}\n  #{e.backtrace.first(8).join("\n  ")}"
      problem(500, 'internal_error', 'internal server error')
    end

    private

    def dispatch(env)
      path = env['PATH_INFO'].to_s
      method = env['REQUEST_METHOD']
      case path
      when %r{\A/oauth1/(request_token|authorize|access_token)\z} then oauth1(env, method, $1)
      when %r{\A/oauth2/(token|authorize|revoke)\z} then oauth2(env, method, $1)
      when '/' then resource(env, :root, {})
      when '/articles' then resource(env, :articles, {})
      when %r{\A/articles?/([^/]+)\z}
        id = $1
        raise HttpError.new(404, 'not_found', 'no such resource') unless id.match?(ID_RE)

        resource(env, :article, { id: id, alias: path.start_with?('/article/') })
      when %r{\A/users/([^/]+)/financialrecords\z} then resource(env, :records, { owner: $1 })
      else raise HttpError.new(404, 'not_found', 'no such resource')
      end
    end

    def resource(env, kind, args)
      principal = @auth.authenticate(env)
      method = env['REQUEST_METHOD']
      perms = RESOURCES.fetch(kind)
      allow = allowed(perms, principal, args)
      unless perms.key?(method)
        raise HttpError.new(405, 'method_not_allowed', "#{method} is not supported here", 'Allow' => allow.join(', '))
      end
      authorize!(env, perms[method], principal, args)
      return [200, { 'Allow' => allow.join(', '), 'Content-Length' => '0' }, []] if method == 'OPTIONS'

      send("#{kind}_#{method == 'HEAD' ? 'get' : method.downcase}", env, principal, args)
    end

    def permitted?(perm, principal, args)
      case perm
      when :any then true
      when :authenticated then !principal.nil?
      when :write then principal&.scope?('articles') || false
      when :records
        return false unless principal&.user && principal.scope?('records')

        ArticleService.defect?('records-any-user') || principal.user.auditor || principal.user.username == args[:owner]
      end
    end

    def allowed(perms, principal, args)
      if ArticleService.defect?('options-ignores-auth')
        return ORDER.select { |m| perms.key?(m) }
      end

      ORDER.select { |m| perms.key?(m) && permitted?(perms[m], principal, args) }
    end

    def authorize!(env, perm, principal, args)
      return if permitted?(perm, principal, args)
      raise @auth.unauthorized(env, 'authentication_required', 'this operation needs authentication') unless principal

      need = perm == :records ? 'records' : 'articles'
      if principal.scheme == 'bearer' && !principal.scope?(need)
        raise HttpError.new(403, 'insufficient_scope', "the access token lacks the #{need} scope",
                            'WWW-Authenticate' => %(Bearer realm="#{@config.realm}", error="insufficient_scope", scope="#{need}"))
      end
      raise HttpError.new(403, 'forbidden', "#{principal.name} may not access this resource")
    end

    # ---- resources -------------------------------------------------------------------------------------------

    def root_get(_env, principal, _args)
      xml = Nokogiri::XML::Builder.new(encoding: 'UTF-8') do |x|
        x.service do
          x.send(:'authenticated-as', principal.name, scheme: principal.scheme)
          x.link(rel: 'articles', href: '/articles')
          x.link(rel: 'financialrecords', href: "/users/#{principal.user.username}/financialrecords") if principal.user
        end
      end.to_xml
      [200, { 'Content-Type' => XML, 'Cache-Control' => 'private, no-store', 'Vary' => 'Authorization, Authentication' }, [xml]]
    end

    def records_get(_env, _principal, args)
      user = @config.users[args[:owner]]
      raise HttpError.new(404, 'not_found', 'no such user') unless user

      xml = Nokogiri::XML::Builder.new(encoding: 'UTF-8') do |x|
        x.financialrecords(owner: user.username, count: user.records.size) do
          user.records.each do |r|
            x.record(id: r[:id]) do
              x.date r[:date]
              x.description r[:description]
              x.amount(r[:amount], currency: r[:currency])
            end
          end
        end
      end.to_xml
      [200, { 'Content-Type' => XML, 'Cache-Control' => 'private, no-store', 'Vary' => 'Authorization, Authentication' }, [xml]]
    end

    def articles_get(env, _principal, _args)
      q = Rack::Request.new(env).GET
      limit = int_param(q, 'limit', 100, 1, 100)
      offset = int_param(q, 'offset', 0, 0, 10_000_000)
      all = @store.list
      page = all[offset, limit] || []
      headers = { 'Content-Type' => XML, 'Cache-Control' => 'no-cache' }
      headers['Link'] = %(</articles?offset=#{offset + limit}&limit=#{limit}>; rel="next") if offset + limit < all.size
      [200, headers, [ArticleXML.build(page, list: true)]]
    end

    def articles_post(env, _principal, _args)
      attrs = ArticleXML.parse(xml_body(env))
      a = @store.create(attrs)
      [201, article_headers(a).merge('Location' => "/articles/#{a.id}"), [ArticleXML.build(a)]]
    rescue ArticleStore::Full
      raise HttpError.new(507, 'storage_full', "at most #{@config.max_articles} articles can be stored")
    end

    def article_get(env, _principal, args)
      a = @store.get(args[:id]) or raise HttpError.new(404, 'not_found', 'no such article')
      headers = article_headers(a)
      headers['Content-Location'] = "/articles/#{a.id}" if args[:alias]
      return [304, headers.reject { |k, _| k == 'Content-Type' }, []] if etag_match?(env['HTTP_IF_NONE_MATCH'], headers['ETag'])

      [200, headers, [ArticleXML.build(a)]]
    end

    def article_put(env, _principal, args)
      id = args[:id]
      partial = ArticleService.defect?('put-merge') && @store.get(id)
      attrs = ArticleXML.parse(xml_body(env), partial: partial)
      check = lambda do |old|
        tag = old && etag(old)
        im = env['HTTP_IF_MATCH']
        inm = env['HTTP_IF_NONE_MATCH']
        (im.nil? || (old && etag_match?(im, tag))) && (inm.nil? || !(old && etag_match?(inm, tag)))
      end
      created, a = @store.put(id, attrs, check)
      headers = article_headers(a)
      return [201, headers.merge('Location' => "/articles/#{id}"), [ArticleXML.build(a)]] if created

      [200, headers.merge('Content-Location' => "/articles/#{id}"), [ArticleXML.build(a)]]
    rescue ArticleStore::PreconditionFailed
      raise HttpError.new(412, 'precondition_failed', 'If-Match / If-None-Match precondition failed')
    rescue ArticleStore::Full
      raise HttpError.new(507, 'storage_full', "at most #{@config.max_articles} articles can be stored")
    end

    def article_delete(env, _principal, args)
      im = env['HTTP_IF_MATCH']
      gone = @store.delete(args[:id], ->(old) { im.nil? || etag_match?(im, etag(old)) })
      raise HttpError.new(404, 'not_found', 'no such article') unless gone

      [204, {}, []]
    rescue ArticleStore::PreconditionFailed
      raise HttpError.new(412, 'precondition_failed', 'If-Match precondition failed')
    end

    # ---- OAuth endpoints -------------------------------------------------------------------------------------

    def oauth1(env, method, step)
      require_tls!(env)
      case step
      when 'request_token', 'access_token'
        raise HttpError.new(405, 'method_not_allowed', 'use POST', 'Allow' => 'POST') unless method == 'POST'

        @oauth1.public_send(step, env)
      when 'authorize'
        raise HttpError.new(405, 'method_not_allowed', 'use GET or POST', 'Allow' => 'GET, POST') unless %w[GET POST].include?(method)

        @oauth1.authorize(env, resource_owner!(env))
      end
    end

    def oauth2(env, method, step)
      require_tls!(env)
      case step
      when 'token', 'revoke'
        raise HttpError.new(405, 'method_not_allowed', 'use POST', 'Allow' => 'POST') unless method == 'POST'
        unless @auth.form?(env)
          raise HttpError.new(415, 'unsupported_media_type', 'use application/x-www-form-urlencoded')
        end

        step == 'token' ? @oauth2.token(env) : @oauth2.revoke(env)
      when 'authorize'
        raise HttpError.new(405, 'method_not_allowed', 'use GET or POST', 'Allow' => 'GET, POST') unless %w[GET POST].include?(method)

        @oauth2.authorize(env, resource_owner!(env))
      end
    end

    # The resource owner approving a token authenticates with Basic (or an HMAC signed request).
    def resource_owner!(env)
      p = @auth.authenticate(env, %i[basic hmac])
      raise @auth.unauthorized(env, 'authentication_required', 'the resource owner must authenticate (Basic or hmac)', %i[basic hmac]) unless p&.user

      p
    end

    def require_tls!(env)
      return if Util.tls?(env)

      raise HttpError.new(403, 'https_required', 'OAuth endpoints are only available over HTTPS')
    end

    # ---- helpers ---------------------------------------------------------------------------------------------

    def xml_body(env)
      type = env['CONTENT_TYPE'].to_s.split(';').first.to_s.strip.downcase
      unless type == 'application/xml' || type == 'text/xml' || type.match?(%r{\Aapplication/[a-z0-9.+-]+\+xml\z})
        raise HttpError.new(415, 'unsupported_media_type', 'send the article as application/xml', 'Accept' => 'application/xml')
      end

      body = env['rack.input'].read.to_s
      env['rack.input'].rewind
      body
    end

    def etag(a)
      %("#{OpenSSL::Digest::SHA256.hexdigest(ArticleXML.build(a))[0, 32]}")
    end

    def etag_match?(header, tag)
      return false if header.nil? || tag.nil?

      header.split(',').map(&:strip).any? { |t| t == '*' || t.sub(%r{\AW/}, '') == tag }
    end

    def article_headers(a)
      { 'Content-Type' => XML, 'ETag' => etag(a), 'Cache-Control' => 'no-cache' }
    end

    def int_param(q, name, default, min, max)
      return default unless q.key?(name)

      v = q[name].to_s
      raise HttpError.new(400, 'invalid_parameter', "#{name} must be an integer in #{min}..#{max}") unless v.match?(/\A\d{1,9}\z/) && v.to_i.between?(min, max)

      v.to_i
    end

    def problem(status, code, detail, headers = {})
      body = JSON.generate(type: "urn:article-service:problem:#{code}", title: Rack::Utils::HTTP_STATUS_CODES[status],
                           status: status, code: code, detail: detail)
      [status, { 'Content-Type' => 'application/problem+json', 'Cache-Control' => 'no-store' }.merge(headers), [body]]
    end
  end
end
