using System.Collections.Concurrent;
using System.Net.Sockets;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using RpcCompare.Bindings.Fast.Transport;
using RpcCompare.Bindings.Limits;
using RpcCompare.Contracts;

namespace RpcCompare.Bindings.Fast.Server;

/// <summary>
/// The server of both fast bindings (its <see cref="FastListener"/> says where it listens and who
/// connected): accepts on a thread of its own with blocking accepts and gives every connection a
/// thread of its own (<see cref="FastServerConnection"/>), up to the connection limit.
/// A connection past the limit, or from a user the host does not serve, is told why in an Error
/// frame and closed; past 64 such at once, closed without a word, so refusals cannot use up the
/// files the limit protects.
/// </summary>
internal sealed class FastServer : IHostedService, IBindingServer, IAsyncDisposable
{
    private const int RefusalsAnsweredAtOnce = 64;

    /// <summary>A connection thread's stack: the loop and a dispatched call's synchronous part need far less than the 1.5 MB default.</summary>
    private const int ConnectionStackSize = 256 * 1024;

    private readonly IServiceProvider _services;
    private readonly FastListener _listener;
    private readonly FastBindingOptions _options;
    private readonly ILogger<FastServer> _logger;
    private readonly ConcurrentDictionary<long, FastServerConnection> _connections = new();
    // Connections handling a frame: a waiting connection spins only when none is.
    private readonly BusyCount _handling = new();
    private FastDispatcher? _dispatcher;
    private ConnectionIncidents? _incidents;
    private Socket? _listenSocket;
    private Thread? _acceptThread;
    private int _maxConnections;
    // What sets the limit, for the log and refusals: "FastTcp:MaxConnections", or the task limit that lowered it.
    private string _limitSource = "";
    private long _nextId;
    private int _disposed;

    public FastServer(IServiceProvider services, FastListener listener, ILogger<FastServer> logger)
    {
        _services = services;
        _listener = listener;
        _options = listener.Options;
        _logger = logger;
    }

    public string Name => _listener.Binding;

    public string? Address { get; private set; }

    /// <summary>Connections open now (for tests and the limit).</summary>
    public int OpenConnections => _connections.Count;

    public Task StartAsync(CancellationToken cancellationToken)
    {
        _options.ThrowIfInvalidFast();
        FastCarryRules.Instance.ThrowUnlessCarried(Name, _services.GetServices<RpcServiceDescriptor>().Select(static s => s.Contract));
        _dispatcher = new FastDispatcher(_services, Name, _options.GeneratedCode, _logger);
        _maxConnections = _options.EffectiveMaxConnections;
        _limitSource = $"{_options.Section}:MaxConnections";
        // A thread per connection: no more connections than the process may have threads (a container's pids limit).
        if (ConnectionThreads.Limit is { } tasks && ConnectionThreads.Capacity < _maxConnections)
        {
            FastServerLog.LimitedByTasks(_logger, Name, ConnectionThreads.Capacity, _maxConnections, tasks.Tasks, tasks.Source,
                tasks.Source == TaskLimit.NprocSource ? "ulimit -u (--ulimit nproc)" : "a container's pids limit (--pids-limit)");
            _maxConnections = ConnectionThreads.Capacity;
            _limitSource = $"a thread each, under {tasks.Source} of {tasks.Tasks:#,0} tasks, shared by the fast bindings";
        }

        _incidents = new ConnectionIncidents(Name, $"{_maxConnections:#,0} ({_limitSource})", _logger);
        var (socket, address) = _listener.Open();
        _listenSocket = socket;
        Address = address;
        _acceptThread = new Thread(AcceptLoop) { IsBackground = true, Name = $"{Name} accept" };
        _acceptThread.Start();
        FastServerLog.Listening(_logger, Name, address);
        FastServerLog.Limits(_logger, Name, _options.Section, _maxConnections, _limitSource, _options.MaxMessageSize, _options.FrameTimeout.TotalSeconds, _options.IdleTimeout.TotalSeconds,
            _listener.UsesTls ? 0 : _options.SpinWait.TotalMicroseconds);
        return Task.CompletedTask;
    }

    public Task StopAsync(CancellationToken cancellationToken)
    {
        Stop();
        return Task.CompletedTask;
    }

    public ValueTask DisposeAsync()
    {
        if (Interlocked.Exchange(ref _disposed, 1) == 0)
        {
            Stop();
        }

        return ValueTask.CompletedTask;
    }

    private void Stop()
    {
        // Closing the listener ends the blocking accept; then every connection is shut down, which ends its blocking receive.
        Interlocked.Exchange(ref _listenSocket, null)?.Dispose();
        _acceptThread?.Join(TimeSpan.FromSeconds(5));
        foreach (var connection in _connections.Values)
        {
            connection.Abort();
        }

        if (Address is not null)
        {
            _listener.Closed(Address);
        }

        // The last summary, so nothing counted is lost.
        Interlocked.Exchange(ref _incidents, null)?.Dispose();
    }

    private void AcceptLoop()
    {
        while (_listenSocket is { } listener)
        {
            Socket socket;
            try
            {
                // Blocking accept on this thread: the accepted socket is never touched by the async engine, so its receives stay real blocking calls.
                socket = listener.Accept();
            }
            catch (Exception e) when (e is SocketException or ObjectDisposedException && _listenSocket is null)
            {
                return;
            }
            catch (Exception e) when (e is SocketException or ObjectDisposedException)
            {
                // Out of files, say: keep accepting once the moment passes; a host that runs but accepts nothing is the worst outcome.
                FastServerLog.AcceptFailed(_logger, e, Name);
                Thread.Sleep(100);
                continue;
            }

            SocketBuffers.Apply(socket);
            Start(socket);
        }
    }

    private void Start(Socket socket)
    {
        var incidents = _incidents;
        if (incidents is null)
        {
            socket.Dispose();
            return;
        }

        var transport = _listener.Transport(socket);
        var open = _connections.Count;
        var closeAtOnce = open >= _maxConnections + RefusalsAnsweredAtOnce;
        if (open >= _maxConnections)
        {
            incidents.Add(ConnectionIncident.Refused, closeAtOnce ? "closed at once" : "answered QuotaExceeded");
        }

        if (closeAtOnce)
        {
            transport.Dispose();
            return;
        }

        // Every fast server of the process shares one budget of threads (the task limit): with none left, closed at once.
        if (!ConnectionThreads.TryTake())
        {
            if (open < _maxConnections)
            {
                incidents.Add(ConnectionIncident.Refused, "closed at once: the fast bindings' threads are all in use");
            }

            transport.Dispose();
            return;
        }

        // Who the caller is, and whether it is served, is known on the connection's thread (after a TLS handshake, which must not hold up this one).
        var overLimit = open >= _maxConnections
            ? new RpcServiceException(RpcErrorCode.QuotaExceeded, $"The {Name} server is serving its limit of {_maxConnections:#,0} connections ({_limitSource}); this connection is closed. Try again once others have closed.")
            : null;
        var id = Interlocked.Increment(ref _nextId);
        var connection = new FastServerConnection(transport, _listener, _dispatcher!, _options, incidents, _logger, id, overLimit, _handling);
        _connections[id] = connection;
        incidents.Opened();
        void Ended()
        {
            _connections.TryRemove(id, out _);
            incidents.Closed();
            ConnectionThreads.Release();
        }

        var thread = new Thread(() =>
        {
            try
            {
                connection.Run();
            }
            finally
            {
                Ended();
            }
        }, ConnectionStackSize) { IsBackground = true, Name = $"{Name} connection {id}" };
        try
        {
            thread.Start();
        }
        catch (Exception e) when (e is OutOfMemoryException or ThreadStartException)
        {
            // The process has no task left after all (another process in the container took the last, say):
            // this connection is closed and the accept loop goes on. Only the reserve keeps the rest of the
            // host clear of this point; the thread pool cannot grow here either.
            Ended();
            if (overLimit is null)
            {
                incidents.Add(ConnectionIncident.Refused, "closed at once: no thread could be started for it");
            }

            connection.Dispose();
        }
    }
}
