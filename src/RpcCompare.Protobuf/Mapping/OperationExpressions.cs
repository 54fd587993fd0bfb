using System.Linq.Expressions;
using System.Reflection;
using RpcCompare.Protobuf.Messages;

namespace RpcCompare.Protobuf.Mapping;

/// <summary>
/// The expressions both sides compile once per operation: how a request message becomes the
/// method's arguments (server), how arguments become a request message (client), and the same
/// for the reply. Compiled delegates keep reflection and boxing off the server's hot path.
/// </summary>
public static class OperationExpressions
{
    /// <summary>
    /// The server's call: <c>(service, request, cancellationToken) =&gt; service.Method(args...)</c>
    /// returning the method's own result (a value, a task, a stream), with out and ref values left in
    /// <paramref name="outputs"/> (locals, read by <see cref="Reply"/> inside the same block).
    /// </summary>
    public static Expression Call(OperationMessages operation, MethodInfo form, ParameterExpression service, ParameterExpression request, ParameterExpression cancellationToken, out IReadOnlyList<ParameterExpression> outputs)
    {
        var locals = new List<ParameterExpression>();
        var arguments = new List<Expression>();
        var inputs = operation.Description.Inputs;
        foreach (var parameter in form.GetParameters())
        {
            if (parameter.ParameterType == typeof(CancellationToken))
            {
                arguments.Add(cancellationToken);
                continue;
            }

            var description = operation.Description.Parameters.Single(p => p.Name == parameter.Name);
            if (parameter.ParameterType.IsByRef)
            {
                // Out and ref values live in locals the reply reads (a ref local starts from the request: LoadRefs).
                var local = Expression.Variable(description.Type, description.Name);
                locals.Add(local);
                arguments.Add(local);
                continue;
            }

            arguments.Add(operation.Request.IsWhole
                ? request
                : EmptyCollections.OrEmpty(Expression.Field(request, operation.Request.Fields[inputs.ToList().IndexOf(description)].Field)));
        }

        outputs = locals;
        return Expression.Call(service, form, arguments);
    }

    /// <summary>Assignments that start each ref local from its request field.</summary>
    public static IEnumerable<Expression> LoadRefs(OperationMessages operation, ParameterExpression request, IReadOnlyList<ParameterExpression> outputs)
    {
        var inputs = operation.Description.Inputs.ToList();
        foreach (var local in outputs)
        {
            var input = inputs.FindIndex(p => p.Name == local.Name);
            if (input >= 0)
            {
                yield return Expression.Assign(local, EmptyCollections.OrEmpty(Expression.Field(request, operation.Request.Fields[input].Field)));
            }
        }
    }

    /// <summary>The reply message from the result (null for void) and the out and ref locals.</summary>
    public static Expression Reply(OperationMessages operation, Expression? result, IReadOnlyList<ParameterExpression> outputs)
    {
        var reply = operation.Reply;
        switch (reply.Shape)
        {
            case MessageShape.Empty:
                return Expression.Constant(EmptyMessage.Instance);
            case MessageShape.Bare or MessageShape.Chunks:
                return result!;
            default:
                var values = new List<Expression>();
                if (operation.ReplyHasResult)
                {
                    values.Add(result!);
                }

                values.AddRange(operation.Description.Outputs.Select(o => outputs.Single(l => l.Name == o.Name)));
                return Expression.MemberInit(
                    Expression.New(reply.Type),
                    values.Select((value, i) => Expression.Bind(reply.Fields[i].Field, value)));
        }
    }

    /// <summary>The client's request: <c>args =&gt; new Request { field = (T)args[position], ... }</c>.</summary>
    public static Expression<Func<object?[], TRequest>> Request<TRequest>(OperationMessages operation, MethodInfo form)
    {
        var args = Expression.Parameter(typeof(object?[]), "args");
        var positions = Positions(operation, form);
        Expression body = operation.Request.Shape switch
        {
            MessageShape.Empty => Expression.Constant(EmptyMessage.Instance),
            MessageShape.Bare or MessageShape.Chunks => Argument(args, positions[operation.Description.Inputs[0].Name], typeof(TRequest)),
            _ => Expression.MemberInit(
                Expression.New(typeof(TRequest)),
                operation.Description.Inputs.Select((p, i) => Expression.Bind(operation.Request.Fields[i].Field, Argument(args, positions[p.Name], p.Type)))),
        };
        return Expression.Lambda<Func<object?[], TRequest>>(body, args);
    }

    /// <summary>
    /// The client's reading of a reply: writes each out and ref value into <c>args</c> (the proxy
    /// copies them back to the caller) and returns the result as a <typeparamref name="TResult"/>.
    /// </summary>
    public static Expression<Func<TReply, object?[], TResult>> Result<TReply, TResult>(OperationMessages operation, MethodInfo form)
    {
        var reply = Expression.Parameter(typeof(TReply), "reply");
        var args = Expression.Parameter(typeof(object?[]), "args");
        var positions = Positions(operation, form);
        var body = new List<Expression>();
        var fields = operation.Reply.Fields;
        var offset = operation.ReplyHasResult ? 1 : 0;
        for (var i = 0; i < operation.Description.Outputs.Count; i++)
        {
            var target = Expression.ArrayAccess(args, Expression.Constant(positions[operation.Description.Outputs[i].Name]));
            body.Add(Expression.Assign(target, Expression.Convert(EmptyCollections.OrEmpty(Expression.Field(reply, fields[offset + i].Field)), typeof(object))));
        }

        Expression result = operation.Reply.Shape switch
        {
            MessageShape.Bare or MessageShape.Chunks => reply,
            MessageShape.Envelope when operation.ReplyHasResult => EmptyCollections.OrEmpty(Expression.Field(reply, fields[0].Field)),
            _ => Expression.Default(typeof(TResult)),
        };
        body.Add(result.Type == typeof(TResult) ? result : Expression.Convert(result, typeof(TResult)));
        return Expression.Lambda<Func<TReply, object?[], TResult>>(Expression.Block(body), reply, args);
    }

    /// <summary>Where each parameter sits in the form's argument array.</summary>
    public static Dictionary<string, int> Positions(OperationMessages operation, MethodInfo form) =>
        form.GetParameters().Where(p => p.ParameterType != typeof(CancellationToken)).ToDictionary(p => p.Name!, p => p.Position, StringComparer.Ordinal);

    private static UnaryExpression Argument(ParameterExpression args, int position, Type type) =>
        Expression.Convert(Expression.ArrayIndex(args, Expression.Constant(position)), type);
}
