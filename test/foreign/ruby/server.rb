# frozen_string_literal: true

# Article service: HTTP + HTTPS listeners (WEBrick) serving one Rack application.
# Start: ruby server.rb   (configuration through environment variables, see README.md)

$stdout.sync = true
$stderr.sync = true

require 'webrick'
require 'webrick/https'
require 'openssl'
require 'stringio'
require_relative 'config'
require_relative 'app'

module ArticleService
  # WEBrick servlet that turns a request into a Rack env, with a bounded request body.
  class Servlet < WEBrick::HTTPServlet::AbstractServlet
    class TooLarge < StandardError; end

    def initialize(server, app, tls, max_body)
      super(server)
      @app = app
      @tls = tls
      @max_body = max_body
    end

    def service(req, res)
      body = read_body(req)
      env = req.meta_vars.reject { |_, v| v.nil? }
      env.delete_if { |k, _| k.start_with?('HTTP_X_FORWARDED_') || k == 'HTTP_FORWARDED' }
      env.update(
        'rack.version' => Rack::VERSION, 'rack.input' => StringIO.new(body).tap { |s| s.set_encoding(Encoding::BINARY) },
        'rack.errors' => $stderr, 'rack.multithread' => true, 'rack.multiprocess' => false, 'rack.run_once' => false,
        'rack.url_scheme' => @tls ? 'https' : 'http', 'rack.hijack?' => false,
        'app.raw_target' => req.unparsed_uri, 'PATH_INFO' => req.request_uri.path, 'QUERY_STRING' => req.query_string.to_s
      )
      env['HTTPS'] = 'on' if @tls
      env['SCRIPT_NAME'] = ''
      env['HTTP_VERSION'] ||= env['SERVER_PROTOCOL']
      status, headers, rbody = @app.call(env)
      write(res, status, headers, rbody)
    rescue TooLarge
      res.keep_alive = false
      write(res, 413, { 'Content-Type' => 'application/problem+json', 'Connection' => 'close' },
            [JSON.generate(type: 'urn:article-service:problem:payload_too_large', title: 'Payload Too Large', status: 413,
                           code: 'payload_too_large', detail: "request bodies are limited to #{@max_body} bytes")])
    end

    private

    def read_body(req)
      raise TooLarge if req['content-length'].to_i > @max_body
      # RFC 9112, 6.3: a request without Content-Length or Transfer-Encoding has an empty body (no 411).
      return +'' if req['content-length'].nil? && req['transfer-encoding'].nil?

      buf = +''
      req.body do |chunk|
        buf << chunk
        raise TooLarge if buf.bytesize > @max_body
      end
      buf
    end

    def write(res, status, headers, body)
      res.status = status.to_i
      headers.each { |k, v| res[k] = v.to_s.split("\n").join(', ') }
      res.request_uri = nil if res['location'] # keep Location exactly as the application wrote it
      body.each { |part| res.body << part }
    ensure
      body.close if body.respond_to?(:close)
    end
  end

  class Server < WEBrick::HTTPServer
    # Lingering close (RFC 9112, 9.6, "the TCP reset problem"): when a connection is closed after an answer that was
    # sent before the request body had been read completely (e.g. an early 413), closing at once with unread data
    # in the receive buffer makes the TCP stack send a reset, and the client may lose the answer. Instead, the
    # write side is half-closed (plain TCP; on TLS the answer is left as is, so the client is never cut off in
    # the middle of sending), and the rest of the request is read and discarded into one small reused buffer,
    # until the client closes, or LINGER_IDLE seconds pass without data, or LINGER_TIME seconds or LINGER_BYTES
    # bytes in total are reached; only then is the connection closed.
    LINGER_BYTES = 8 * 1024 * 1024
    LINGER_TIME = 30
    LINGER_IDLE = 5
    LINGER_CHUNK = 16 * 1024

    # Remembers the current request of this connection's thread, so that run can tell whether its body was read.
    def create_request(config)
      Thread.current[:article_service_request] = super
    end

    def run(sock)
      super
    ensure
      req = Thread.current[:article_service_request]
      Thread.current[:article_service_request] = nil
      linger(sock) if req && unread_body?(req)
    end

    # "OPTIONS *": methods the server as a whole supports.
    def do_OPTIONS(_req, res)
      res['allow'] = 'GET, HEAD, PUT, POST, DELETE, OPTIONS'
      res['content-length'] = '0'
    end

    def setup_ssl_context(config)
      ctx = super
      ctx.min_version = OpenSSL::SSL::TLS1_2_VERSION
      ctx
    end

    private

    # True when the request announced a body (Content-Length > 0 or Transfer-Encoding) that was not read to its end.
    def unread_body?(req)
      return false unless req.request_line

      announced = req['transfer-encoding'] || req['content-length'].to_s.strip.match?(/\A0*[1-9]\d*\z/)
      remaining = req.instance_variable_get(:@remaining_size) # WEBrick: nil = not read, 0 = read completely
      announced && (remaining.nil? || remaining.positive?)
    rescue StandardError
      false
    end

    def linger(sock)
      io = sock.to_io
      sock.flush
      io.shutdown(Socket::SHUT_WR) unless sock.is_a?(OpenSSL::SSL::SSLSocket)
      buf = String.new(capacity: LINGER_CHUNK, encoding: Encoding::BINARY)
      now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
      deadline = now + LINGER_TIME
      idle_until = now + LINGER_IDLE
      discarded = 0
      while discarded < LINGER_BYTES && @status == :Running
        now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
        wait = [deadline, idle_until].min - now
        break if wait <= 0

        case (r = sock.read_nonblock(LINGER_CHUNK, buf, exception: false))
        when nil then break # the client closed its side: nothing can be reset any more
        when :wait_readable then io.wait_readable([wait, 0.5].min)
        when :wait_writable then io.wait_writable([wait, 0.5].min)
        else
          discarded += r.bytesize
          idle_until = Process.clock_gettime(Process::CLOCK_MONOTONIC) + LINGER_IDLE
        end
      end
      buf.clear
    rescue IOError, SystemCallError, OpenSSL::SSL::SSLError
      nil # the peer went away; the connection is closed by the caller either way
    end
  end

  KNOWN_DEFECTS = %w[hmac-nonce-replay hmac-date-future hmac-method-fallback put-merge options-ignores-auth
                     records-any-user basic-over-http xml-entities oauth2-expiry-ignored oauth1-nonce-replay].freeze

  module_function

  def listener(app, config, host, port, tls)
    opts = {
      BindAddress: host, Port: port, ServerSoftware: 'article-service',
      Logger: WEBrick::Log.new($stderr, WEBrick::BasicLog::WARN),
      AccessLog: [[$stderr, %(%h "%r" %s %b #{tls ? 'https' : 'http'})]],
      DoNotReverseLookup: true, RequestTimeout: 30, MaxClients: 100
    }
    if tls
      certs = File.read(ENV.fetch('TLS_CERT')).scan(/-----BEGIN CERTIFICATE-----.+?-----END CERTIFICATE-----/m)
      raise ArgumentError, 'TLS_CERT contains no certificate' if certs.empty?

      opts.update(SSLEnable: true, SSLCertificate: OpenSSL::X509::Certificate.new(certs.first),
                  SSLExtraChainCert: certs.drop(1).map { |c| OpenSSL::X509::Certificate.new(c) },
                  SSLPrivateKey: OpenSSL::PKey.read(File.read(ENV.fetch('TLS_KEY'))),
                  SSLOptions: OpenSSL::SSL::SSLContext::DEFAULT_PARAMS[:options],
                  SSLStartImmediately: true)
    end
    server = Server.new(opts)
    server.mount('/', Servlet, app, tls, config.max_body_bytes)
    server
  end

  def port_env(name, default)
    v = ENV.fetch(name, default.to_s)
    raise ArgumentError, "#{name} must be a port number" unless v.match?(/\A\d+\z/) && v.to_i <= 65_535

    v.to_i
  end

  def main
    config_path = ENV['CONFIG'] || File.join(__dir__, 'example-config.json')
    warn "CONFIG not set, using #{config_path}" unless ENV['CONFIG']
    config = Config.load(config_path)
    warn "DEFECTS ENABLED: #{DEFECTS.join(', ')}" unless DEFECTS.empty?
    unknown = DEFECTS - KNOWN_DEFECTS
    warn "unknown DEFECT names ignored: #{unknown.join(', ')}" unless unknown.empty?
    host = ENV.fetch('BIND', '127.0.0.1')
    app = App.new(config)
    http = listener(app, config, host, port_env('HTTP_PORT', 8080), false)
    https = listener(app, config, host, port_env('HTTPS_PORT', 8443), true)
    servers = [http, https]

    stopping = false
    %w[TERM INT].each do |sig|
      trap(sig) do
        next if stopping

        stopping = true
        Thread.new { servers.each(&:shutdown) }
      end
    end

    threads = servers.map { |s| Thread.new { s.start } }
    shown = ['127.0.0.1', '0.0.0.0', '::', 'localhost', '::1'].include?(host) ? '127.0.0.1' : host
    shown = "[#{shown}]" if shown.include?(':')
    ports = servers.map { |s| s.listeners.first.addr[1] }
    $stdout.puts "READY http://#{shown}:#{ports[0]} https://#{shown}:#{ports[1]}"
    $stdout.flush
    threads.each(&:join)
    warn 'stopped'
    $stdout.flush
    $stderr.flush
    exit!(0) # nothing left to clean up; skip slow library at_exit hooks

  rescue ArgumentError, KeyError, JSON::ParserError, SystemCallError, OpenSSL::OpenSSLError => e
    warn "startup failed: #{e.class}: #{e.message}"
    exit 1
  end
end

ArticleService.main if $PROGRAM_NAME == __FILE__
