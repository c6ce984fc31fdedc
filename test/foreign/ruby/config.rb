# frozen_string_literal: true

require 'json'

module ArticleService
  # Loads and validates the JSON configuration file (format: see README.md).
  class Config
    NAME_RE = /\A[A-Za-z0-9._~-]{1,64}\z/.freeze
    SCOPES = %w[articles records].freeze
    GRANTS = %w[authorization_code password client_credentials refresh_token].freeze
    DEFAULT_LIFETIMES = {
      'oauth1_request_token' => 600, 'oauth1_access_token' => 3600,
      'oauth2_access_token' => 3600, 'oauth2_refresh_token' => 86_400,
      'oauth2_authorization_code' => 60
    }.freeze

    User = Struct.new(:username, :password, :hmac_secret, :auditor, :records, keyword_init: true)
    Consumer = Struct.new(:key, :secret, :callback_uris, keyword_init: true)
    Client = Struct.new(:client_id, :client_secret, :redirect_uris, :grant_types, :scopes, keyword_init: true)

    attr_reader :realm, :clock_skew, :max_body_bytes, :max_articles, :lifetimes,
                :users, :consumers, :clients

    def self.load(path)
      new(JSON.parse(File.read(path)))
    end

    def initialize(h)
      raise ArgumentError, 'configuration must be a JSON object' unless h.is_a?(Hash)

      @realm = str(h.fetch('realm', 'article-service'), 'realm')
      raise ArgumentError, 'realm must not contain quotes or backslashes' if @realm =~ /["\\]/

      @clock_skew = int(h.fetch('clock_skew_seconds', 600), 'clock_skew_seconds', 1, 86_400)
      @max_body_bytes = int(h.fetch('max_body_bytes', 65_536), 'max_body_bytes', 1024, 10 * 1024 * 1024)
      @max_articles = int(h.fetch('max_articles', 10_000), 'max_articles', 1, 1_000_000)
      lt = h.fetch('lifetimes', {})
      raise ArgumentError, 'lifetimes must be an object' unless lt.is_a?(Hash)

      unknown = lt.keys - DEFAULT_LIFETIMES.keys
      raise ArgumentError, "unknown lifetimes: #{unknown.join(', ')}" unless unknown.empty?

      @lifetimes = DEFAULT_LIFETIMES.to_h { |k, v| [k.to_sym, int(lt.fetch(k, v), "lifetimes.#{k}", 1, 31_536_000)] }
      @users = index(h.fetch('users', []), 'username') { |u| build_user(u) }
      @consumers = index(h.fetch('oauth1_consumers', []), 'key') { |c| build_consumer(c) }
      @clients = index(h.fetch('oauth2_clients', []), 'client_id') { |c| build_client(c) }
    end

    private

    def index(list, key)
      raise ArgumentError, "#{key} list must be an array" unless list.is_a?(Array)

      list.each_with_object({}) do |item, acc|
        raise ArgumentError, 'list entries must be objects' unless item.is_a?(Hash)

        obj = yield item
        id = obj[key.to_sym]
        raise ArgumentError, "duplicate #{key} #{id}" if acc.key?(id)

        acc[id] = obj
      end
    end

    def build_user(u)
      name = str(u['username'], 'username')
      raise ArgumentError, "invalid username #{name.inspect}" unless name.match?(NAME_RE)

      records = u.fetch('financialrecords', [])
      raise ArgumentError, 'financialrecords must be an array' unless records.is_a?(Array)

      User.new(username: name, password: opt_str(u['password'], 'password'),
               hmac_secret: opt_str(u['hmac_secret'], 'hmac_secret'), auditor: u['auditor'] == true,
               records: records.each_with_index.map { |r, i| build_record(r, i) }.freeze)
    end

    def build_record(r, i)
      raise ArgumentError, 'financial record must be an object' unless r.is_a?(Hash)

      { id: (r['id'] || (i + 1)).to_s, date: r['date'].to_s, description: r['description'].to_s,
        amount: r['amount'].to_s, currency: r['currency'].to_s }.freeze
    end

    def build_consumer(c)
      key = str(c['key'], 'oauth1 consumer key')
      raise ArgumentError, "invalid consumer key #{key.inspect}" unless key.match?(NAME_RE)

      Consumer.new(key: key, secret: str(c['secret'], 'oauth1 consumer secret'),
                   callback_uris: Array(c['callback_uris']).map(&:to_s))
    end

    def build_client(c)
      id = str(c['client_id'], 'client_id')
      raise ArgumentError, "invalid client_id #{id.inspect}" unless id.match?(NAME_RE)

      grants = Array(c.fetch('grant_types', GRANTS)).map(&:to_s)
      raise ArgumentError, "unknown grant types for #{id}" unless (grants - GRANTS).empty?

      scopes = Array(c.fetch('scopes', SCOPES)).map(&:to_s)
      raise ArgumentError, "unknown scopes for #{id}" unless (scopes - SCOPES).empty?

      Client.new(client_id: id, client_secret: str(c['client_secret'], 'client_secret'),
                 redirect_uris: Array(c['redirect_uris']).map(&:to_s), grant_types: grants, scopes: scopes)
    end

    def str(v, what)
      raise ArgumentError, "#{what} must be a non-empty string" unless v.is_a?(String) && !v.empty?

      v
    end

    def opt_str(v, what)
      v.nil? ? nil : str(v, what)
    end

    def int(v, what, min, max)
      raise ArgumentError, "#{what} must be an integer in #{min}..#{max}" unless v.is_a?(Integer) && v.between?(min, max)

      v
    end
  end
end
