using RpcCompare.Client;

namespace RpcCompare.Runner.Measurement;

/// <summary>
/// One cell of a suite: an operation over one binding target, at one size. <see cref="CreateCall"/>
/// builds, for one client session, the delegate that makes one call; requests are built once, so
/// the loop measures the call and not the building of its arguments. <see cref="Clients"/>, when
/// set, overrides the run's --clients for this cell (the scaling suite's steps).
/// </summary>
internal sealed record Workload(
    string Suite,
    string Operation,
    BindingTarget Target,
    long? Size,
    long PayloadBytes,
    Func<RpcClientSession, Func<Task>> CreateCall,
    int? Clients = null);
