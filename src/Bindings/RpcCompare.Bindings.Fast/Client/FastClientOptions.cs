using RpcCompare.Bindings.Security;

namespace RpcCompare.Bindings.Fast.Client;

/// <summary>Client-side settings of the fast binding.</summary>
public sealed class FastClientOptions
{
    /// <summary>Largest request sent or reply accepted; a larger request is refused before anything is sent. Defaults to 16 MiB, the server's default.</summary>
    public int MaxMessageSize { get; set; } = 16 * 1024 * 1024;

    /// <summary>
    /// A pooled connection (or the one Task calls share) left unused this long is checked (one
    /// non-blocking poll) before its next call, since the server closes idle connections; a closed one
    /// is replaced. Defaults to 1 second.
    /// </summary>
    public TimeSpan IdleCheckAfter { get; set; } = TimeSpan.FromSeconds(1);

    /// <summary>
    /// How long a call polls its socket for the reply before it blocks in the receive (a blocked
    /// thread woken by another process pays a wake-up per reply). A Task call that is the process's
    /// only one in flight spins as long as the operation's replies have lately taken, up to four times
    /// this (a large message's reply takes longer than an empty call's). Zero blocks at once; longer
    /// (the low-latency mode, e.g. 1 ms) trades a busy core for latency. Defaults to <see cref="FastSpin.Default"/>.
    /// </summary>
    public TimeSpan SpinWait { get; set; } = FastSpin.Default;

    /// <summary>
    /// How long a call may take (WCF's OperationTimeout): past it the client tells the server to
    /// cancel the call (the service's CancellationToken fires, if it takes one) and the caller gets
    /// a <see cref="TimeoutException"/>; the connection stays usable. A streamed call is timed up to
    /// its reply (a request stream's sending included), and its reply stream's every wait for the next
    /// chunk; one past it (or cancelled by the caller's token) closes its connection instead, which the
    /// server takes as the call's cancellation. Infinite (the default) or positive.
    /// </summary>
    public TimeSpan CallTimeout { get; set; } = Timeout.InfiniteTimeSpan;

    /// <summary>
    /// TLS for fast-tcp (as <c>RpcClientOptions.Tls</c> asks it of every TCP binding): set, every
    /// connection negotiates TLS and trusts the server as it says (a pinned thumbprint, or the
    /// system's roots), presenting its client certificate if it has one. TLS reads records ahead of
    /// what the socket shows, so under it nothing spins on the socket (<see cref="SpinWait"/> does not
    /// apply) and a multiplexed connection's reader thread reads every reply (a synchronous call still
    /// blocks for its own). fast-uds ignores it, as the other Unix-socket bindings do. Defaults to null: plaintext.
    /// </summary>
    public ClientTlsOptions? Tls { get; set; }

    /// <summary>
    /// How the contract's Task and ValueTask methods call: <see cref="FastTaskCalls.Multiplexed"/>
    /// (the default) or <see cref="FastTaskCalls.OnCallerThread"/>. Synchronous methods always block
    /// the caller's thread on a pooled connection of their own, the lowest-latency way to call.
    /// </summary>
    public FastTaskCalls TaskCalls { get; set; } = FastTaskCalls.Multiplexed;

    /// <summary>
    /// Call a contract through its generated proxy ([FastContracts], RpcCompare.Fast.Generator) when it
    /// has one that agrees with the contract model; false uses the reflection proxy (a DispatchProxy
    /// and compiled expressions), as a contract without generated code does. Defaults to true.
    /// </summary>
    public bool GeneratedCode { get; set; } = true;

    /// <summary>A copy of every setting (TLS options shared): what a provider keeps.</summary>
    internal FastClientOptions Copy() => (FastClientOptions)MemberwiseClone();
}

/// <summary>How a fast client's Task-returning methods call the server.</summary>
public enum FastTaskCalls
{
    /// <summary>
    /// Truly asynchronous: every such call of a client shares one connection, multiplexed by call id
    /// (replies in any order); the caller's thread returns at once and the reply completes the task
    /// on the thread pool. What a server-side caller with many concurrent calls needs.
    /// </summary>
    Multiplexed,

    /// <summary>
    /// Run like the synchronous method, on the caller's thread and a pooled connection of its own,
    /// and return a completed task: one thread hop less per call, but a thread blocked for the
    /// whole call. For a dedicated caller thread measuring latency, not for servers.
    /// </summary>
    OnCallerThread,
}
