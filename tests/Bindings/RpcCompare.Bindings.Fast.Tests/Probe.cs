using System.ServiceModel;
using RpcCompare.Bindings.Security;
using RpcCompare.Contracts;

namespace RpcCompare.Bindings.Fast.Tests;

/// <summary>A contract for the binding's own behaviour: errors, pending calls, the caller, sizes.</summary>
[ServiceContract(Namespace = "urn:rpccompare:tests:fast")]
public interface IProbe
{
    [OperationContract]
    int Echo(int value);

    /// <summary>Echo's Task form (the same operation): on the multiplexed connection by default.</summary>
    [OperationContract]
    Task<int> EchoAsync(int value);

    /// <summary>Throws RpcServiceException with <paramref name="code"/>.</summary>
    [OperationContract]
    void Refuse(int code);

    [OperationContract]
    Task RefuseAsync(int code);

    /// <summary>Throws an exception that is neither a refusal nor a fault.</summary>
    [OperationContract]
    void Crash();

    /// <summary>Completes when the test releases <paramref name="key"/>.</summary>
    [OperationContract]
    Task<int> LaterAsync(int key);

    /// <summary>Like <see cref="LaterAsync"/>, but holds the thread that dispatched it until the test releases <paramref name="key"/>.</summary>
    [OperationContract]
    int Hold(int key);

    /// <summary>Like <see cref="LaterAsync"/>, but ends cancelled when its token is (recorded: <see cref="Probe.SawCancellation"/>).</summary>
    [OperationContract]
    Task<int> WaitForCancellationAsync(int key, CancellationToken cancellationToken);

    /// <summary>Like <see cref="LaterAsync"/>, taking a token it never looks at.</summary>
    [OperationContract]
    Task<int> IgnoreCancellationAsync(int key, CancellationToken cancellationToken);

    /// <summary>Who called, as the service sees it.</summary>
    [OperationContract]
    string Caller();

    [OperationContract]
    byte[] Bytes(int size);

    [OperationContract]
    Task<byte[]> BytesAsync(int size);

    [OperationContract]
    string Send(string text);

    [OperationContract]
    Task<string> SendAsync(string text);

    [OperationContract(IsOneWay = true)]
    void Note(string text);
}

public sealed class Probe : IProbe
{
    private readonly Dictionary<int, TaskCompletionSource<int>> _later = [];
    private readonly Dictionary<int, CancellationToken> _tokens = [];

    public List<string> Notes { get; } = [];

    public int Echo(int value) => value;

    public Task<int> EchoAsync(int value) => Task.FromResult(value);

    public Task RefuseAsync(int code)
    {
        Refuse(code);
        return Task.CompletedTask;
    }

    public void Refuse(int code) => throw new RpcServiceException((RpcErrorCode)code, $"refused with {code}");

    public void Crash() => throw new InvalidOperationException("secret internals");

    public Task<int> LaterAsync(int key) => Pending(key).Task;

    /// <summary>Completes the pending call with <paramref name="key"/>, answering it with key × 10.</summary>
    public void Release(int key) => Pending(key).TrySetResult(key * 10);

    /// <summary>Whether a call with <paramref name="key"/> has reached the service and waits for <see cref="Release"/>.</summary>
    public bool IsWaiting(int key)
    {
        lock (_later)
        {
            return _later.TryGetValue(key, out var pending) && !pending.Task.IsCompleted;
        }
    }

    public int Hold(int key) => Pending(key).Task.GetAwaiter().GetResult();

    public Task<int> WaitForCancellationAsync(int key, CancellationToken cancellationToken)
    {
        lock (_tokens)
        {
            _tokens[key] = cancellationToken;
        }

        return Pending(key).Task.WaitAsync(cancellationToken);
    }

    public Task<int> IgnoreCancellationAsync(int key, CancellationToken cancellationToken) => Pending(key).Task;

    /// <summary>Whether the service's token for the call with <paramref name="key"/> was cancelled.</summary>
    public bool SawCancellation(int key)
    {
        lock (_tokens)
        {
            return _tokens.TryGetValue(key, out var token) && token.IsCancellationRequested;
        }
    }

    public string Caller() => CallerIdentity.Current?.ToString() ?? "nobody";

    public byte[] Bytes(int size) => new byte[size];

    public Task<byte[]> BytesAsync(int size) => Task.FromResult(Bytes(size));

    public string Send(string text) => text;

    public Task<string> SendAsync(string text) => Task.FromResult(text);

    public void Note(string text)
    {
        lock (Notes)
        {
            Notes.Add(text);
        }
    }

    private TaskCompletionSource<int> Pending(int key)
    {
        lock (_later)
        {
            if (!_later.TryGetValue(key, out var pending))
            {
                _later[key] = pending = new TaskCompletionSource<int>(TaskCreationOptions.RunContinuationsAsynchronously);
            }

            return pending;
        }
    }
}
