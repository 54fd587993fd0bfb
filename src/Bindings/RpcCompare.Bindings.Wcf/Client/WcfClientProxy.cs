using System.Collections.Concurrent;
using System.Reflection;
using System.ServiceModel;

namespace RpcCompare.Bindings.Wcf.Client;

/// <summary>
/// Wraps a WCF channel so callers see the contract's one error model: a typed
/// FaultException&lt;RpcFault&gt; and WCF's quota errors come out as RpcServiceException
/// (<see cref="WcfErrors"/>). Releasing the proxy closes its channel.
/// </summary>
/// <remarks>
/// WCF has no client-side hook that replaces the exception a call throws, so the mapping sits
/// in front of the channel (itself a DispatchProxy). It costs one reflective call per operation,
/// well under a microsecond beside a WCF call's tens.
/// </remarks>
internal class WcfClientProxy : DispatchProxy, IAsyncDisposable
{
    private static readonly ConcurrentDictionary<Type, Func<Task, int, Task>> s_typedMappers = new();
    private static readonly MethodInfo s_mapTyped = typeof(WcfClientProxy).GetMethod(nameof(MapTypedAsync), BindingFlags.NonPublic | BindingFlags.Static)!;
    private object _channel = null!;
    private int _clientLimit;

    public static T Create<T>(T channel, int clientLimit)
        where T : class
    {
        var proxy = Create<T, WcfClientProxy>();
        var self = (WcfClientProxy)(object)proxy;
        self._channel = channel;
        self._clientLimit = clientLimit;
        return proxy;
    }

    public async ValueTask DisposeAsync()
    {
        var channel = (ICommunicationObject)_channel;
        if (channel.State != CommunicationState.Opened)
        {
            channel.Abort();
            return;
        }

        try
        {
            await Task.Factory.FromAsync(channel.BeginClose, channel.EndClose, null).ConfigureAwait(false);
        }
        catch (Exception exception) when (exception is CommunicationException or TimeoutException)
        {
            channel.Abort();
        }

        GC.SuppressFinalize(this);
    }

    protected override object? Invoke(MethodInfo? targetMethod, object?[]? args)
    {
        ArgumentNullException.ThrowIfNull(targetMethod);
        object? result;
        try
        {
            result = targetMethod.Invoke(_channel, args);
        }
        catch (TargetInvocationException exception) when (exception.InnerException is { } inner)
        {
            throw WcfErrors.FromException(inner, _clientLimit);
        }

        return result switch
        {
            Task task when targetMethod.ReturnType == typeof(Task) => MapAsync(task, _clientLimit),
            Task task => s_typedMappers.GetOrAdd(targetMethod.ReturnType, CreateTypedMapper)(task, _clientLimit),
            _ => result,
        };
    }

    private static Func<Task, int, Task> CreateTypedMapper(Type taskType) =>
        s_mapTyped.MakeGenericMethod(taskType.GetGenericArguments()[0]).CreateDelegate<Func<Task, int, Task>>();

    private static async Task MapAsync(Task task, int clientLimit)
    {
        try
        {
            await task.ConfigureAwait(false);
        }
        catch (Exception exception) when (WcfErrors.FromException(exception, clientLimit) is var mapped && !ReferenceEquals(mapped, exception))
        {
            throw mapped;
        }
    }

    private static async Task<T> MapTypedAsync<T>(Task task, int clientLimit)
    {
        try
        {
            return await ((Task<T>)task).ConfigureAwait(false);
        }
        catch (Exception exception) when (WcfErrors.FromException(exception, clientLimit) is var mapped && !ReferenceEquals(mapped, exception))
        {
            throw mapped;
        }
    }
}
