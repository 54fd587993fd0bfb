using System.Net.Security;
using System.Net.Sockets;
using System.Security.Authentication;
using System.Security.Cryptography.X509Certificates;
using RpcCompare.Bindings.Fast.Protocol;
using RpcCompare.Bindings.Security;

namespace RpcCompare.Bindings.Fast.Transport;

/// <summary>
/// fast-tcp's frames inside TLS: .NET's <see cref="SslStream"/> over the blocking socket, used
/// synchronously, so a connection keeps its one thread per reader and no thread-pool hop (the
/// socket stays blocking). Each side negotiates before its first frame, bounded by a timeout: the
/// server on the connection's own thread, never the accept thread. A receive timeout bounds a whole
/// read (<see cref="DeadlineSocketStream"/>), as it bounds one receive in plaintext.
/// </summary>
/// <remarks>
/// SslStream reports a failing socket as an <see cref="IOException"/> around the
/// <see cref="SocketException"/> (or <see cref="ObjectDisposedException"/>); that one is rethrown as
/// it is, and a peer that closed inside a record is an <see cref="EndOfStreamException"/>, so
/// timeouts, resets, ends and closes read the same as on <see cref="SocketTransport"/>. Any other
/// failure is bytes that are not TLS (or a record that does not authenticate): a
/// <see cref="FastProtocolException"/>, as garbage is in plaintext.
/// </remarks>
internal sealed class TlsTransport : FastTransport
{
    private readonly DeadlineSocketStream _socketStream;
    private readonly SslStream _tls;
    private int _receiveTimeout;

    /// <summary>TLS over <paramref name="socket"/>, to be negotiated (<see cref="AuthenticateAsServer"/>, <see cref="AuthenticateAsClient"/>) before any frame.</summary>
    public TlsTransport(Socket socket)
        : base(socket)
    {
        _socketStream = new DeadlineSocketStream(socket);
        _tls = new SslStream(_socketStream, leaveInnerStreamOpen: false);
    }

    public override bool SocketShowsEverything => false;

    /// <summary>
    /// A copy of the certificate the peer presented (the client's, under mutual TLS); null when it
    /// presented none. A copy, so the caller's identity does not depend on what this stream does with
    /// its own once the connection is closed (the copy is the identity's, for the garbage collector).
    /// </summary>
    public X509Certificate2? RemoteCertificate => _tls.RemoteCertificate is { } certificate ? X509CertificateLoader.LoadCertificate(certificate.GetRawCertData()) : null;

    /// <summary>
    /// The server's side of the handshake, within <paramref name="timeout"/>. With
    /// <paramref name="askClientCertificate"/>, any client certificate (or none) completes it: the
    /// host's policy is applied after, so a refused client is told why in a frame it can read (as
    /// the Kestrel bindings do, <see cref="TransportSecurity.UseTls"/>).
    /// Throws <see cref="TlsHandshakeException"/> when it fails or takes too long; the transport is then disposed.
    /// </summary>
    public void AuthenticateAsServer(SslStreamCertificateContext certificate, bool askClientCertificate, TimeSpan timeout) =>
        Handshake(timeout, tls => tls.AuthenticateAsServer(new SslServerAuthenticationOptions
        {
            ServerCertificateContext = certificate,
            ClientCertificateRequired = askClientCertificate,
#pragma warning disable CA5359 // The client's certificate, not a server's: the host's policy judges it right after the handshake (TransportSecurity.Refuse).
            RemoteCertificateValidationCallback = askClientCertificate ? static (_, _, _, _) => true : null,
#pragma warning restore CA5359
        }));

    /// <summary>
    /// The client's side of the handshake, within <paramref name="timeout"/>: the server's
    /// certificate is trusted as <paramref name="tls"/> says (pinned, or the system's roots and
    /// <paramref name="targetHost"/>); a client certificate goes with it when set.
    /// Throws <see cref="TlsHandshakeException"/> saying why; the transport is then disposed.
    /// </summary>
    public void AuthenticateAsClient(string targetHost, ClientTlsOptions tls, TimeSpan timeout) =>
        Handshake(timeout, stream => stream.AuthenticateAsClient(ClientOptions(targetHost, tls)));

    /// <summary>As <see cref="AuthenticateAsClient"/>, over a stream of the socket for an asynchronous reader (the push client).</summary>
    public static async Task<Stream> AuthenticateAsClientAsync(Socket socket, string targetHost, ClientTlsOptions tls, TimeSpan timeout, CancellationToken cancellationToken)
    {
        var stream = new SslStream(new NetworkStream(socket, ownsSocket: true), leaveInnerStreamOpen: false);
        using var timer = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timer.CancelAfter(timeout);
        try
        {
            await stream.AuthenticateAsClientAsync(ClientOptions(targetHost, tls), timer.Token).ConfigureAwait(false);
            return stream;
        }
        catch (OperationCanceledException e) when (!cancellationToken.IsCancellationRequested)
        {
            await stream.DisposeAsync().ConfigureAwait(false);
            throw new TlsHandshakeException($"the TLS handshake took longer than {timeout.TotalSeconds:0.#} s", e, timedOut: true);
        }
        catch (Exception e) when (e is AuthenticationException or IOException)
        {
            await stream.DisposeAsync().ConfigureAwait(false);
            throw new TlsHandshakeException(Reason(e), e, timedOut: false);
        }
        catch
        {
            await stream.DisposeAsync().ConfigureAwait(false);
            throw;
        }
    }

    /// <summary>A whole read's bound, however many system calls TLS makes for it (the socket's own timeout bounds each one alone).</summary>
    public override void SetReceiveTimeout(int milliseconds) => _receiveTimeout = milliseconds;

    public override int Receive(Span<byte> destination)
    {
        _socketStream.Deadline = _receiveTimeout > 0 ? Environment.TickCount64 + _receiveTimeout : 0;
        try
        {
            return _tls.Read(destination);
        }
        catch (IOException e)
        {
            throw Translated(e);
        }
    }

    public override void Send(ReadOnlySpan<byte> frame)
    {
        try
        {
            _tls.Write(frame);
        }
        catch (IOException e)
        {
            throw Translated(e);
        }
    }

    public override void Dispose()
    {
        try
        {
            _tls.Dispose();
        }
        catch (Exception e) when (e is IOException or ObjectDisposedException)
        {
            // Its close_notify could not go out: the peer sees the end of the stream all the same.
        }

        base.Dispose();
    }

    private static SslClientAuthenticationOptions ClientOptions(string targetHost, ClientTlsOptions tls) => new()
    {
        TargetHost = targetHost,
        ClientCertificates = tls.ClientCertificates,
        RemoteCertificateValidationCallback = tls.ValidationCallback,
    };

    /// <summary>The handshake under a timeout on both directions of the socket, which is put back to none after it.</summary>
    private void Handshake(TimeSpan timeout, Action<SslStream> authenticate)
    {
        var milliseconds = (int)Math.Min(timeout.TotalMilliseconds, int.MaxValue);
        try
        {
            // One deadline for the whole handshake: a peer trickling it byte by byte is as stuck as a silent one.
            _socketStream.Deadline = Environment.TickCount64 + milliseconds;
            Socket.SendTimeout = milliseconds;
            authenticate(_tls);
            _socketStream.Deadline = 0;
            Socket.SendTimeout = 0;
        }
        catch (Exception e) when (e is AuthenticationException or IOException or SocketException)
        {
            Dispose();
            var timedOut = SocketErrorIn(e) is SocketError.TimedOut or SocketError.WouldBlock;
            throw new TlsHandshakeException(timedOut ? $"the TLS handshake took longer than {timeout.TotalSeconds:0.#} s" : Reason(e), e, timedOut);
        }
        catch
        {
            Dispose();
            throw;
        }
    }

    /// <summary>The error of the socket exception inside <paramref name="e"/>, however deep SslStream wrapped it; null for none.</summary>
    private static SocketError? SocketErrorIn(Exception e)
    {
        for (Exception? inner = e; inner is not null; inner = inner.InnerException)
        {
            if (inner is SocketException socket)
            {
                return socket.SocketErrorCode;
            }
        }

        return null;
    }

    /// <summary>The innermost message: what the callback or the peer said, not "Authentication failed, see inner exception".</summary>
    private static string Reason(Exception e)
    {
        var inner = e;
        while (inner.InnerException is { } next)
        {
            inner = next;
        }

        return ReferenceEquals(inner, e) ? e.Message : $"{e.Message} {inner.Message}";
    }

    // A failing or closed socket as the socket's own exception, an end inside a record as the end of the stream;
    // anything else is bytes that are not TLS. (A corrupt record has no inner exception either: the socket tells them apart.)
    private Exception Translated(IOException e) => e.InnerException switch
    {
        SocketException socket => socket,
        ObjectDisposedException disposed => disposed,
        null when AtEnd() => new EndOfStreamException($"The connection closed inside a TLS record: {e.Message}", e),
        _ => new FastProtocolException($"TLS failed: {Reason(e)}"),
    };

    private bool AtEnd()
    {
        try
        {
            return Socket.Poll(0, SelectMode.SelectRead) && Socket.Available == 0;
        }
        catch (Exception e) when (e is SocketException or ObjectDisposedException)
        {
            return true;
        }
    }
}

/// <summary>A TLS handshake that failed (the reason says how) or took longer than its timeout (<see cref="TimedOut"/>).</summary>
internal sealed class TlsHandshakeException(string message, Exception inner, bool timedOut) : IOException(message, inner)
{
    public bool TimedOut { get; } = timedOut;
}
