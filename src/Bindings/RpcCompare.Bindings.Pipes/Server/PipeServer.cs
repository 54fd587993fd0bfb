using System.Collections.Concurrent;
using System.IO.Pipes;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using RpcCompare.Bindings.Hosting;
using RpcCompare.Bindings.Limits;
using RpcCompare.Bindings.Security;
using RpcCompare.Contracts;

namespace RpcCompare.Bindings.Pipes.Server;

/// <summary>
/// Accepts pipe connections and runs each on its own task, so several clients are served at
/// once, each on its own connection, up to <see cref="Limits.ConnectionLimitOptions.MaxConnections"/>.
/// </summary>
/// <remarks>
/// On Unix every NamedPipeServerStream instance for a path shares one listening socket, which is
/// closed (and its file removed) when the last instance lets go; an instance lets go once it has
/// accepted. The loop therefore always holds a spare instance while one waits, so the socket
/// never disappears between two connections.
/// </remarks>
internal sealed class PipeServer : IHostedService, IBindingServer, IAsyncDisposable
{
    /// <summary>
    /// Connections past the limit that are still told why (each holds a file until its first
    /// request or the frame timeout); beyond these a connection is closed at once, so a flood of
    /// refusals cannot use up the files the limit protects.
    /// </summary>
    private const int RefusalsAnsweredAtOnce = 64;

    private readonly PipeDispatcher _dispatcher;
    private readonly PipesBindingOptions _options;
    private readonly ILogger<PipeServer> _logger;
    private readonly CancellationTokenSource _stopping = new();
    private readonly ConcurrentDictionary<long, Task> _connections = new();
    private NamedPipeServerStream? _waiting;
    private NamedPipeServerStream? _spare;
    private Task _acceptLoop = Task.CompletedTask;
    private long _nextConnectionId;
    private int _maxConnections;
    private RpcServiceException? _refusal;
    private ConnectionIncidents? _incidents;
    private int _disposed;

    private readonly UnixPeerPolicy _peers;

    /// <param name="dispatcher">Answers the requests.</param>
    /// <param name="options">Socket path, limits, timeouts.</param>
    /// <param name="logger">The server's log.</param>
    /// <param name="peers">Which users may connect; by default this process's own user and root.</param>
    public PipeServer(PipeDispatcher dispatcher, IOptions<PipesBindingOptions> options, ILogger<PipeServer> logger, UnixPeerPolicy? peers = null)
    {
        _dispatcher = dispatcher;
        _options = options.Value;
        _logger = logger;
        _peers = peers ?? UnixPeerPolicy.OwnUser;
    }

    public string Name => BindingNames.Pipes;

    public string? Address { get; private set; }

    public Task StartAsync(CancellationToken cancellationToken)
    {
        var path = _options.Path;
        if (string.IsNullOrEmpty(path) || !System.IO.Path.IsPathRooted(path))
        {
            throw new InvalidOperationException($"The pipes binding needs an absolute socket path (Pipes:Path); got '{path}'.");
        }

        if (_options.MaxMessageSize <= 0)
        {
            throw new InvalidOperationException($"Pipes:MaxMessageSize must be positive; got {_options.MaxMessageSize}.");
        }

        _options.ThrowIfInvalid(PipesBindingOptions.SectionName);
        _maxConnections = _options.EffectiveMaxConnections;
        _incidents = new ConnectionIncidents(Name, $"{_maxConnections:#,0} (Pipes:MaxConnections)", _logger);
        _refusal = new RpcServiceException(RpcErrorCode.QuotaExceeded,
            $"The pipes server is serving its limit of {_maxConnections:#,0} connections (Pipes:MaxConnections); this connection is closed. Try again once others have closed.");
        StaleSocketFile.RemoveIfStale(path);
        // Creating the first instance binds and listens, so the binding is reachable when StartAsync returns.
        _waiting = CreateInstance(path);
        Address = path;
        _acceptLoop = AcceptLoopAsync(path, _stopping.Token);
        PipeServerLog.Listening(_logger, Name, path);
        PipeServerLog.Limits(_logger, Name, _maxConnections, _options.FrameTimeout.TotalSeconds, _options.IdleTimeout.TotalSeconds);
        if (_dispatcher.NotCarried.Count > 0)
        {
            PipeServerLog.ContractsNotCarried(_logger, string.Join(", ", _dispatcher.NotCarried));
        }

        return Task.CompletedTask;
    }

    public async Task StopAsync(CancellationToken cancellationToken)
    {
        await _stopping.CancelAsync();
        await _acceptLoop;
        await Task.WhenAll(_connections.Values).WaitAsync(cancellationToken);
        await DisposeListenersAsync();
        // The last summary, so nothing counted is lost.
        Interlocked.Exchange(ref _incidents, null)?.Dispose();
    }

    public async ValueTask DisposeAsync()
    {
        // The container may hand this out under several service types and dispose it once for each.
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
        {
            return;
        }

        await _stopping.CancelAsync();
        // The loop may be about to create an instance; let it finish before the listeners go.
        await _acceptLoop;
        await DisposeListenersAsync();
        Interlocked.Exchange(ref _incidents, null)?.Dispose();
        _stopping.Dispose();
    }

    private async Task AcceptLoopAsync(string path, CancellationToken cancellationToken)
    {
        while (!cancellationToken.IsCancellationRequested)
        {
            try
            {
                _waiting ??= CreateInstance(path);
                _spare ??= CreateInstance(path);
                var waiting = _waiting;
                await waiting.WaitForConnectionAsync(cancellationToken);
                (_waiting, _spare) = (_spare, null);
                StartConnection(waiting, cancellationToken);
            }
            catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
            {
                return;
            }
            catch (Exception exception)
            {
                // Whatever failed, keep accepting: a host that runs but accepts nothing is the worst outcome.
                PipeServerLog.AcceptFailed(_logger, exception);
                var failed = _waiting;
                (_waiting, _spare) = (_spare, null);
                if (failed is not null)
                {
                    await failed.DisposeAsync();
                }

                try
                {
                    await Task.Delay(TimeSpan.FromMilliseconds(100), cancellationToken);
                }
                catch (OperationCanceledException)
                {
                    return;
                }
            }
        }
    }

    // Runs on the accept loop only.
    private void StartConnection(NamedPipeServerStream stream, CancellationToken cancellationToken)
    {
        // A user the host does not serve has its first request answered PermissionDenied, saying
        // why, and is closed; counted once here. Past the limit, it is closed at once like any other.
        var peer = PeerCredentials.Of(stream.SafePipeHandle);
        var denied = _peers.Refuse(peer, _incidents!);
        var open = _connections.Count;
        var atLimit = open >= _maxConnections;
        var closeAtOnce = open >= _maxConnections + RefusalsAnsweredAtOnce;
        if (atLimit)
        {
            // Counted and summarised per interval, not logged once per refused client.
            _incidents?.Add(ConnectionIncident.Refused, closeAtOnce ? "closed at once" : "answered QuotaExceeded");
        }

        if (closeAtOnce)
        {
            stream.Dispose();
            return;
        }

        var refusal = denied is not null ? new RpcServiceException(RpcErrorCode.PermissionDenied, denied) : atLimit ? _refusal : null;
        var id = Interlocked.Increment(ref _nextConnectionId);
        var connection = new PipeConnection(stream, _dispatcher, _options, _logger, id, _dispatcher.Topics, refusal, _incidents,
            new CallerIdentity(BindingNames.Pipes, peer));
        var task = Task.Run(() => connection.RunAsync(cancellationToken), CancellationToken.None);
        _connections[id] = task;
        var incidents = _incidents;
        incidents?.Opened();
        // Registered after the add, so the removal cannot run ahead of it.
        _ = task.ContinueWith(_ =>
        {
            _connections.TryRemove(id, out var _);
            incidents?.Closed();
        }, CancellationToken.None, TaskContinuationOptions.ExecuteSynchronously, TaskScheduler.Default);
    }

    private async ValueTask DisposeListenersAsync()
    {
        if (_waiting is not null)
        {
            await _waiting.DisposeAsync();
            _waiting = null;
        }

        if (_spare is not null)
        {
            await _spare.DisposeAsync();
            _spare = null;
        }

        // The last instance normally removes the socket file; make sure of it.
        if (Address is not null && File.Exists(Address))
        {
            File.Delete(Address);
        }
    }

    private static NamedPipeServerStream CreateInstance(string path) =>
        new(path, PipeDirection.InOut, NamedPipeServerStream.MaxAllowedServerInstances, PipeTransmissionMode.Byte, PipeOptions.Asynchronous);
}
