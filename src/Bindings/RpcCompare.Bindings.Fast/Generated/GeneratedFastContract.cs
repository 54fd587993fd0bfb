using System.ComponentModel;
using RpcCompare.Bindings.Fast.Client;
using RpcCompare.Bindings.Fast.Server;
using RpcCompare.Bindings.Telemetry;
using RpcCompare.Description;
using RpcCompare.Protobuf.Mapping;
using RpcCompare.Protobuf.Messages;

namespace RpcCompare.Bindings.Fast.Generated;

/// <summary>
/// The generated code for one contract (its subclass is written by RpcCompare.Fast.Generator): the
/// operation table the binding checks against the contract model, the server's calls and the proxy.
/// </summary>
[EditorBrowsable(EditorBrowsableState.Never)]
public abstract class GeneratedFastContract
{
    public abstract Type Contract { get; }

    /// <summary>The operations in the generator's order (client calls name them by index).</summary>
    public abstract IReadOnlyList<GeneratedOperation> Operations { get; }

    /// <summary>The contract's proxy over <paramref name="client"/>.</summary>
    public abstract object CreateClient(FastGeneratedClient client);
}

/// <summary>How a generated message travels, as the protobuf mapping says it (<see cref="MessageShape"/>); an envelope's field names in field order.</summary>
[EditorBrowsable(EditorBrowsableState.Never)]
public sealed class GeneratedMessage
{
    private GeneratedMessage(MessageShape shape, IReadOnlyList<string> fields)
    {
        Shape = shape;
        Fields = fields;
    }

    public static GeneratedMessage Empty { get; } = new(MessageShape.Empty, []);

    public static GeneratedMessage Bare { get; } = new(MessageShape.Bare, []);

    public static GeneratedMessage Chunks { get; } = new(MessageShape.Chunks, []);

    public MessageShape Shape { get; }

    public IReadOnlyList<string> Fields { get; }

    public static GeneratedMessage Envelope(params string[] fields) => new(MessageShape.Envelope, fields);

    public override string ToString() => Shape == MessageShape.Envelope ? $"Envelope({string.Join(", ", Fields)})" : Shape.ToString();
}

/// <summary>One generated operation: its WCF name, its messages, and the server's call.</summary>
[EditorBrowsable(EditorBrowsableState.Never)]
public abstract class GeneratedOperation
{
    private protected GeneratedOperation(string name, GeneratedMessage request, GeneratedMessage reply)
    {
        Name = name;
        Request = request;
        Reply = reply;
    }

    public string Name { get; }

    public GeneratedMessage Request { get; }

    public GeneratedMessage Reply { get; }

    /// <summary>The request's and reply's CLR types (the data contract, Stream, EmptyMessage or the generated envelope).</summary>
    public abstract Type RequestType { get; }

    public abstract Type ReplyType { get; }

    internal abstract IServedOperation Serve(OperationMessages operation, object service, ServedMethod telemetry);

    /// <summary>Reads this operation's reply bodies (a <see cref="BodyReader{T}"/> of the reply type).</summary>
    internal abstract object ReplyReader(OperationDescription description);
}

/// <summary>A generated operation of <typeparamref name="TContract"/> whose server call is <c>serve</c>.</summary>
[EditorBrowsable(EditorBrowsableState.Never)]
public sealed class GeneratedOperation<TContract, TRequest, TReply>(string name, GeneratedMessage request, GeneratedMessage reply,
    Func<TContract, TRequest, CancellationToken, ValueTask<TReply>> serve) : GeneratedOperation(name, request, reply)
    where TContract : class
    where TRequest : class
    where TReply : class
{
    public override Type RequestType => typeof(TRequest);

    public override Type ReplyType => typeof(TReply);

    internal override IServedOperation Serve(OperationMessages operation, object service, ServedMethod telemetry) =>
        new ServedOperation<TContract, TRequest, TReply>(operation, (TContract)service, telemetry, serve);

    internal override object ReplyReader(OperationDescription description) => new BodyReader<TReply>(body => Replies.Read<TReply>(body, description));
}

/// <summary>The server calls generated code makes for a method's asynchronous forms.</summary>
[EditorBrowsable(EditorBrowsableState.Never)]
public static class GeneratedServing
{
    /// <summary>A void Task method's reply: Empty once it completes (no state machine when it already has).</summary>
    public static ValueTask<EmptyMessage> Empty(Task task) =>
        task.IsCompletedSuccessfully ? new(EmptyMessage.Instance) : AwaitEmpty(task);

    public static ValueTask<EmptyMessage> Empty(ValueTask task)
    {
        if (task.IsCompletedSuccessfully)
        {
            // Consumed even when done: a ValueTask over a pooled IValueTaskSource is only released by its result.
            task.GetAwaiter().GetResult();
            return new(EmptyMessage.Instance);
        }

        return AwaitEmpty(task.AsTask());
    }

    /// <summary>A result wrapped in its reply envelope once the method's task completes.</summary>
    public static ValueTask<TReply> Wrap<TResult, TReply>(Task<TResult> task, Func<TResult, TReply> wrap) =>
        task.IsCompletedSuccessfully ? new(wrap(task.Result)) : AwaitWrap(task, wrap);

    public static ValueTask<TReply> Wrap<TResult, TReply>(ValueTask<TResult> task, Func<TResult, TReply> wrap) =>
        task.IsCompletedSuccessfully ? new(wrap(task.Result)) : AwaitWrap(task.AsTask(), wrap);

    private static async ValueTask<EmptyMessage> AwaitEmpty(Task task)
    {
        await task.ConfigureAwait(false);
        return EmptyMessage.Instance;
    }

    private static async ValueTask<TReply> AwaitWrap<TResult, TReply>(Task<TResult> task, Func<TResult, TReply> wrap) =>
        wrap(await task.ConfigureAwait(false));
}
