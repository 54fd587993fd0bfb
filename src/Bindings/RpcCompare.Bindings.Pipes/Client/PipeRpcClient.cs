using System.IO.Pipes;
using System.Net.Sockets;
using System.Runtime.CompilerServices;
using System.Text;
using RpcCompare.Bindings.Pipes.Protocol;
using RpcCompare.Contracts;

namespace RpcCompare.Bindings.Pipes.Client;

/// <summary>
/// One connection to a pipes server, implementing every contract the server serves. Calls on
/// one client take turns (the protocol answers in order); use one client per concurrent caller.
/// Connects on the first call and again after the connection breaks, or after the server closed
/// it for sitting idle (Pipes:IdleTimeout), which is checked before a connection idle for
/// <see cref="PipesClientOptions.IdleCheckAfter"/> or more is reused.
/// </summary>
internal sealed partial class PipeRpcClient : IAsyncDisposable, IDisposable
{
    private readonly string _path;
    private readonly PipesClientOptions _options;
    private readonly SemaphoreSlim _gate = new(1, 1);
    private readonly FrameBuffer _request = new();
    private readonly FrameBuffer _reply = new();
    private NamedPipeClientStream? _stream;
    private long _lastUsed;
    private bool _disposed;

    public PipeRpcClient(string path, PipesClientOptions options)
    {
        _path = path;
        _options = options;
    }

    // Pooled: the state machine of a call is reused instead of allocated, since every call goes through here.
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    private async ValueTask<TReply> CallAsync<TRequest, TReply>(OperationCode operation, TRequest request, PayloadEncoder<TRequest> encode, PayloadDecoder<TReply> decode)
    {
        await _gate.WaitAsync();
        try
        {
            ObjectDisposedException.ThrowIf(_disposed, this);
            _request.Reset();
            var code = _request.BeginRequest(operation);
            encode(_request, request);
            var messageLength = _request.MessageLength;
            if (messageLength > _options.MaxMessageSize)
            {
                throw new RpcServiceException(RpcErrorCode.QuotaExceeded,
                    $"The request of {messageLength} bytes exceeds the pipes client's limit of {_options.MaxMessageSize} bytes; nothing was sent.");
            }

            if (_stream is { } idle && ClosedWhileIdle(idle))
            {
                await DropConnectionAsync();
            }

            var stream = _stream ?? await ConnectAsync();
            try
            {
                await stream.WriteAsync(_request.Complete(code));
                // Read loops inline rather than Stream.ReadExactlyAsync, whose own state machine
                // would be allocated on every call that has to wait for the reply.
                var header = _reply.Header;
                for (var read = 0; read < header.Length;)
                {
                    read += ReadOrThrow(await stream.ReadAsync(header[read..]));
                }

                var (length, status) = PipeFrame.ReadHeader(_reply.Header.Span);
                if (length > _options.MaxMessageSize)
                {
                    // The rest of the reply cannot be skipped cheaply; this connection is done.
                    await DropConnectionAsync();
                    throw new RpcServiceException(RpcErrorCode.QuotaExceeded,
                        $"The reply of {length} bytes exceeds the pipes client's limit of {_options.MaxMessageSize} bytes.");
                }

                var body = _reply.ReceiveBody((int)length);
                for (var read = 0; read < body.Length;)
                {
                    read += ReadOrThrow(await stream.ReadAsync(body[read..]));
                }

                if (status != PipeFrame.Success)
                {
                    throw new RpcServiceException((RpcErrorCode)status, Encoding.UTF8.GetString(body.Span));
                }

                var reply = MessageCodec.Decode(body.Span, decode);
                _request.Reset();
                _reply.Reset();
                _lastUsed = Environment.TickCount64;
                return reply;
            }
            catch (PipeProtocolException exception)
            {
                // The two sides disagree on the format: nothing after this on the connection can be trusted.
                await DropConnectionAsync();
                throw new InvalidDataException($"The reply from the pipes server at '{_path}' does not decode: {exception.Message}", exception);
            }
            catch (Exception exception) when (exception is IOException or EndOfStreamException)
            {
                await DropConnectionAsync();
                throw new IOException($"The pipes connection to '{_path}' failed: {exception.Message}", exception);
            }
        }
        finally
        {
            _gate.Release();
        }
    }

    private static int ReadOrThrow(int read) => read > 0 ? read : throw new EndOfStreamException("The server closed the connection in the middle of a reply.");

    /// <summary>
    /// Whether the server has closed a connection this client left idle: between requests nothing
    /// may arrive, so a pipe that reads as ready holds the end of the stream. Checked without
    /// blocking (poll) on Linux, where a pipe is a Unix socket, and only after IdleCheckAfter of disuse,
    /// so back-to-back calls pay nothing.
    /// </summary>
    private bool ClosedWhileIdle(NamedPipeClientStream stream)
    {
        if (OperatingSystem.IsWindows() || Environment.TickCount64 - _lastUsed < (long)_options.IdleCheckAfter.TotalMilliseconds)
        {
            return false;
        }

        using var socket = new Socket(new SafeSocketHandle(stream.SafePipeHandle.DangerousGetHandle(), ownsHandle: false));
        return socket.Poll(0, SelectMode.SelectRead);
    }

    private async Task<NamedPipeClientStream> ConnectAsync()
    {
        var stream = new NamedPipeClientStream(".", _path, PipeDirection.InOut, PipeOptions.Asynchronous);
        try
        {
            await stream.ConnectAsync((int)_options.ConnectTimeout.TotalMilliseconds);
        }
        catch (Exception exception) when (exception is TimeoutException or IOException)
        {
            await stream.DisposeAsync();
            throw new IOException($"Could not connect to the pipes server at '{_path}' within {_options.ConnectTimeout.TotalSeconds:0.#} s: {exception.Message}", exception);
        }

        _stream = stream;
        _lastUsed = Environment.TickCount64;
        return stream;
    }

    private async ValueTask DropConnectionAsync()
    {
        if (_stream is not null)
        {
            await _stream.DisposeAsync();
            _stream = null;
        }
    }

    public async ValueTask DisposeAsync()
    {
        await _gate.WaitAsync();
        try
        {
            if (_disposed)
            {
                return;
            }

            _disposed = true;
            await DropConnectionAsync();
            _request.Dispose();
            _reply.Dispose();
        }
        finally
        {
            _gate.Release();
        }
    }

    public void Dispose() => DisposeAsync().AsTask().GetAwaiter().GetResult();
}
