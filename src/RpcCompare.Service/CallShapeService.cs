using RpcCompare.Contracts;
using RpcCompare.Service.Internal;

namespace RpcCompare.Service;

/// <summary>The call shapes: as little work as a method with that signature can do.</summary>
public sealed class CallShapeService : ICallShapeService
{
    /// <summary>What <see cref="ReturnIntAsync"/> returns.</summary>
    public const int Answer = 42;

    private static readonly Task<IntMessage> s_answer = Task.FromResult(new IntMessage { Value = Answer });

    // Written so the arguments are observably consumed; nothing reads them.
    private int _lastInt;
    private PointMessage? _lastPoint;

    public Task VoidCallAsync() => Task.CompletedTask;

    public Task TakeIntAsync(IntMessage request)
    {
        Requests.Require(request);
        _lastInt = request.Value;
        return Task.CompletedTask;
    }

    public Task<IntMessage> ReturnIntAsync() => s_answer;

    public Task<IntMessage> IncrementAsync(IntMessage request)
    {
        Requests.Require(request);
        return Task.FromResult(new IntMessage { Value = unchecked(request.Value + 1) });
    }

    public Task TakePointAsync(PointMessage request)
    {
        Requests.Require(request);
        _lastPoint = request;
        return Task.CompletedTask;
    }

    internal (int LastInt, PointMessage? LastPoint) LastArguments => (_lastInt, _lastPoint);
}
